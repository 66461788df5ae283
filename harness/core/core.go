// Package core holds the types the editable files plug into: tools,
// middleware, memory, messages and replies. It is immutable plumbing and
// deliberately has no package-level state, so an editable file cannot change
// the loop, the model or the evaluation through it.
package core

import (
	"encoding/json"
	"fmt"
)

// Spec describes a tool to the model: a name, a description and a JSON-schema
// object for its parameters.
type Spec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Tool is a spec plus the function that runs it. Run returns the observation
// text; a mistake the model can fix is returned as text, never as a panic.
type Tool struct {
	Spec Spec
	Run  func(args map[string]any, ctx *Context) string
}

// Tracer records free-form events; tools may use it to leave evidence.
type Tracer interface {
	Event(typ string, fields map[string]any)
}

// Context is what a tool sees of the run.
type Context struct {
	Root        string // the task root; every path resolves inside it
	Name        string // the tool's own name
	TestCommand string // the public test command handed in by the anchor
	Trace       Tracer
}

// Usage is token accounting as reported by the model server.
type Usage struct {
	Input  int `json:"input"`
	Output int `json:"output"`
}

// Total is input plus output tokens.
func (u Usage) Total() int { return u.Input + u.Output }

// Add returns the sum of two usages.
func (u Usage) Add(v Usage) Usage { return Usage{u.Input + v.Input, u.Output + v.Output} }

// ToolCall is one call proposed by the model. Args is kept exactly as the
// model produced it so that history can be resent byte for byte.
type ToolCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// Role of a message in the conversation.
type Role string

const (
	System    Role = "system"
	User      Role = "user"
	Assistant Role = "assistant"
	ToolRole  Role = "tool"
)

// Message is one entry of the append-only conversation.
type Message struct {
	Role       Role       `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	ToolName   string     `json:"tool_name,omitempty"`
}

// Reply is one complete model response.
type Reply struct {
	Text       string     `json:"text"`
	ToolCalls  []ToolCall `json:"tool_calls"`
	Usage      Usage      `json:"usage"`
	StopReason string     `json:"stop_reason"`
}

// ModelError is a failed model request. Status is the HTTP status, or 0 for a
// transport error or an unreadable response.
type ModelError struct {
	Status    int
	Transport bool
	Message   string
}

func (e *ModelError) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("model: http %d: %s", e.Status, e.Message)
	}
	return "model: " + e.Message
}

// State is the loop's state as middleware sees it. Messages returns a copy:
// history is append-only and middleware cannot rewrite it.
type State struct {
	Step     int   // model replies received so far
	Attempt  int   // failed attempts of the current model call
	Usage    Usage // cumulative
	messages []Message
}

// NewState is used by the loop; middleware only reads states.
func NewState(step, attempt int, usage Usage, messages []Message) *State {
	return &State{Step: step, Attempt: attempt, Usage: usage, messages: messages}
}

// Messages returns a copy of the conversation so far.
func (s *State) Messages() []Message { return append([]Message(nil), s.messages...) }

// Len is the number of messages so far.
func (s *State) Len() int { return len(s.messages) }

// Middleware hooks. A middleware implements any subset of these interfaces;
// the chain finds them by type assertion.
type (
	BeforeModel  interface{ BeforeModel(s *State) }
	AfterModel   interface{ AfterModel(s *State, r *Reply) }
	OnModelError interface {
		OnModelError(s *State, err error) bool // true: retry the call
	}
	AfterTool interface {
		AfterTool(s *State, call ToolCall, result string) string
	}
	ShouldStop interface {
		ShouldStop(s *State) string // non-empty reason stops the loop
	}
)

// Memory carries knowledge across runs. Recall's text is appended to the
// first user message.
type Memory interface {
	Recall(taskPrompt string) string
	Remember(s *State)
}
