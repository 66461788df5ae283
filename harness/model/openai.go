package model

import (
	"encoding/json"
	"fmt"

	"ratchet/harness/core"
)

type oaiFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
	Arguments   *string         `json:"arguments,omitempty"`
}

type oaiTool struct {
	Type     string      `json:"type"`
	Function oaiFunction `json:"function"`
}

type oaiCall struct {
	ID       string      `json:"id"`
	Type     string      `json:"type"`
	Function oaiFunction `json:"function"`
}

type oaiMessage struct {
	Role       string    `json:"role"`
	Content    string    `json:"content"`
	ToolCalls  []oaiCall `json:"tool_calls,omitempty"`
	ToolCallID string    `json:"tool_call_id,omitempty"`
}

type oaiRequest struct {
	Model           string       `json:"model"`
	Messages        []oaiMessage `json:"messages"`
	Tools           []oaiTool    `json:"tools,omitempty"`
	Temperature     float64      `json:"temperature"`
	Seed            int          `json:"seed"`
	ReasoningEffort string       `json:"reasoning_effort,omitempty"` // only from MODEL_OPTIONS: a hosted model without reasoning refuses it
	Stream          bool         `json:"stream"`
}

func encodeOpenAI(name string, msgs []core.Message, tools []core.Spec) ([]byte, error) {
	req := oaiRequest{Model: name, Temperature: 0, Seed: Seed}
	for _, m := range msgs {
		om := oaiMessage{Role: string(m.Role), Content: m.Content, ToolCallID: m.ToolCallID}
		for _, c := range m.ToolCalls {
			args := string(c.Args)
			om.ToolCalls = append(om.ToolCalls, oaiCall{ID: c.ID, Type: "function",
				Function: oaiFunction{Name: c.Name, Arguments: &args}})
		}
		req.Messages = append(req.Messages, om)
	}
	for _, t := range tools {
		req.Tools = append(req.Tools, oaiTool{Type: "function",
			Function: oaiFunction{Name: t.Name, Description: t.Description, Parameters: t.Parameters}})
	}
	return json.Marshal(req)
}

type oaiResponse struct {
	Choices []struct {
		Message struct {
			Content   *string `json:"content"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

func decodeOpenAI(raw []byte) (core.Reply, error) {
	var r oaiResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		return core.Reply{}, err
	}
	if len(r.Choices) == 0 {
		return core.Reply{}, errNoChoice
	}
	ch := r.Choices[0]
	reply := core.Reply{StopReason: ch.FinishReason}
	if ch.Message.Content != nil {
		reply.Text = *ch.Message.Content
	}
	for i, c := range ch.Message.ToolCalls {
		args := c.Function.Arguments
		// The documented shape is a JSON string holding JSON; some servers
		// send the object itself.
		var s string
		if json.Unmarshal(args, &s) == nil {
			args = json.RawMessage(s)
		}
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("call_%d", i)
		}
		reply.ToolCalls = append(reply.ToolCalls, core.ToolCall{ID: id, Name: c.Function.Name, Args: args})
	}
	if r.Usage != nil {
		reply.Usage = core.Usage{Input: r.Usage.PromptTokens, Output: r.Usage.CompletionTokens}
	}
	return reply, nil
}
