package trace

import "ratchet/harness/core"

// Type is the kind of an event: the "type" key of its line.
type Type string

// The kinds of event the loop writes. Tools may write others through
// core.Tracer; a reader meets those as unknown types.
const (
	TypeModelCall  Type = "model_call"
	TypeModelReply Type = "model_reply"
	TypeToolCall   Type = "tool_call"
	TypeToolResult Type = "tool_result"
	TypeError      Type = "error"
	TypeDone       Type = "done"
)

// Event is one of the typed events below. The writer adds the "ts" and
// "type" keys; the structs hold the rest. Their json tags are the keys
// traces have always had, so old trace files read the same.
type Event interface {
	Type() Type
}

// header is the part of a line every event has.
type header struct {
	TS   string `json:"ts"`
	Type Type   `json:"type"`
}

// ModelCall is written before each request to the model, retries included.
type ModelCall struct {
	Step      int `json:"step"`       // the step the reply will be
	NMessages int `json:"n_messages"` // messages sent
	Attempt   int `json:"attempt"`    // 1 for the first try
}

// ModelReply is one reply of the model, as the loop received it, before
// any middleware saw it.
type ModelReply struct {
	Step       int             `json:"step"`
	Text       string          `json:"text"`
	ToolCalls  []core.ToolCall `json:"tool_calls"`
	Usage      core.Usage      `json:"usage"`
	StopReason string          `json:"stop_reason"`
}

// ToolCall is one call the model asked for, before it is validated.
type ToolCall struct {
	Step int    `json:"step"`
	ID   string `json:"id"`
	Name string `json:"name"`
	Args string `json:"args"` // the arguments as the model wrote them, JSON or not
}

// ToolResult is what a call returned. Result is always whole: when the
// middleware showed the model less, Truncated says so and ShownChars how
// much it saw. A call refused before it ran is Rejected, with the refusal
// as its Result.
type ToolResult struct {
	Step      int    `json:"step"`
	ID        string `json:"id"`
	Name      string `json:"name"`
	Result    string `json:"result"`
	Truncated bool   `json:"truncated"`
	// ShownChars is a pointer because a middleware may show nothing at
	// all: zero characters shown is not the same as the key being absent.
	ShownChars *int `json:"shown_chars,omitempty"`
	Rejected   bool `json:"rejected,omitempty"`
}

// Error is a failed model request, or a tool's panic. Step is 0 for a
// panic: traces never gave one there.
type Error struct {
	Step    int    `json:"step,omitempty"`
	Message string `json:"message"`
}

// Done is the last event of a run that ended on its own terms; a killed run
// has none.
type Done struct {
	Steps  int        `json:"steps"`
	Reason string     `json:"reason"`
	Usage  core.Usage `json:"usage"` // the whole run's
}

// Type is TypeModelCall.
func (ModelCall) Type() Type { return TypeModelCall }

// Type is TypeModelReply.
func (ModelReply) Type() Type { return TypeModelReply }

// Type is TypeToolCall.
func (ToolCall) Type() Type { return TypeToolCall }

// Type is TypeToolResult.
func (ToolResult) Type() Type { return TypeToolResult }

// Type is TypeError.
func (Error) Type() Type { return TypeError }

// Type is TypeDone.
func (Done) Type() Type { return TypeDone }
