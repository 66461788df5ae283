package model

import (
	"encoding/json"
	"errors"

	"ratchet/harness/core"
)

type antBlock struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   *string         `json:"content,omitempty"`
}

type antMessage struct {
	Role    string     `json:"role"`
	Content []antBlock `json:"content"`
}

type antTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type antRequest struct {
	Model       string       `json:"model"`
	MaxTokens   int          `json:"max_tokens"`
	System      string       `json:"system,omitempty"`
	Messages    []antMessage `json:"messages"`
	Tools       []antTool    `json:"tools,omitempty"`
	Temperature float64      `json:"temperature"`
}

// encodeAnthropic maps the conversation onto the messages API: the system
// prompt goes top-level, and the results of one reply's calls travel together
// in one user message, as the API requires.
func encodeAnthropic(name string, msgs []core.Message, tools []core.Spec) ([]byte, error) {
	req := antRequest{Model: name, MaxTokens: 4096}
	for _, m := range msgs {
		switch m.Role {
		case core.System:
			req.System = m.Content
		case core.User:
			req.Messages = append(req.Messages, antMessage{Role: "user", Content: []antBlock{text(m.Content)}})
		case core.Assistant:
			am := antMessage{Role: "assistant"}
			if m.Content != "" {
				am.Content = append(am.Content, text(m.Content))
			}
			for _, c := range m.ToolCalls {
				in := c.Args
				if !json.Valid(in) {
					in = json.RawMessage(`{}`)
				}
				am.Content = append(am.Content, antBlock{Type: "tool_use", ID: c.ID, Name: c.Name, Input: in})
			}
			if len(am.Content) == 0 {
				am.Content = []antBlock{text("")}
			}
			req.Messages = append(req.Messages, am)
		case core.ToolRole:
			content := m.Content
			b := antBlock{Type: "tool_result", ToolUseID: m.ToolCallID, Content: &content}
			last := len(req.Messages) - 1
			if last >= 0 && req.Messages[last].Role == "user" && req.Messages[last].Content[0].Type == "tool_result" {
				req.Messages[last].Content = append(req.Messages[last].Content, b)
			} else {
				req.Messages = append(req.Messages, antMessage{Role: "user", Content: []antBlock{b}})
			}
		}
	}
	for _, t := range tools {
		req.Tools = append(req.Tools, antTool{Name: t.Name, Description: t.Description, InputSchema: t.Parameters})
	}
	return json.Marshal(req)
}

func text(s string) antBlock { return antBlock{Type: "text", Text: &s} }

type antResponse struct {
	Type    string `json:"type"`
	Content []struct {
		Type  string          `json:"type"`
		Text  string          `json:"text"`
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"content"`
	StopReason string `json:"stop_reason"`
	Usage      *struct {
		InputTokens              int `json:"input_tokens"`
		OutputTokens             int `json:"output_tokens"`
		CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	} `json:"usage"`
}

func decodeAnthropic(raw []byte) (core.Reply, error) {
	var r antResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		return core.Reply{}, err
	}
	if r.Type != "message" {
		return core.Reply{}, errors.New("reply is not a message")
	}
	reply := core.Reply{StopReason: r.StopReason}
	for _, b := range r.Content {
		switch b.Type {
		case "text":
			reply.Text += b.Text
		case "tool_use":
			reply.ToolCalls = append(reply.ToolCalls, core.ToolCall{ID: b.ID, Name: b.Name, Args: b.Input})
		}
	}
	if u := r.Usage; u != nil {
		reply.Usage = core.Usage{Input: u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens, Output: u.OutputTokens}
	}
	return reply, nil
}
