// Package agent is the immutable loop: it asks the model, validates and
// dispatches tool calls, runs the middleware chain and writes the trace.
package agent

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"ratchet/harness/core"
	"ratchet/harness/middleware"
	"ratchet/harness/tools"
)

// Tools returns the registry: exactly the four tools, in a fixed order.
func Tools() []core.Tool {
	return []core.Tool{tools.ReadFile(), tools.WriteFile(), tools.RunTests(), tools.ListDir()}
}

// Middleware returns the chain in its fixed order: retry, truncation,
// token_budget.
func Middleware() []any {
	return []any{middleware.Retry(), middleware.Truncation(), middleware.TokenBudget()}
}

// schema is the subset of JSON schema tool parameters use.
type schema struct {
	Type                 string             `json:"type"`
	Properties           map[string]*schema `json:"properties"`
	Required             []string           `json:"required"`
	AdditionalProperties *bool              `json:"additionalProperties"`
	Items                *schema            `json:"items"`
	Enum                 []any              `json:"enum"`
}

// validate checks a call against the registry and returns the decoded
// arguments, or a rejection text for the model saying what is valid.
func validate(byName map[string]core.Tool, call core.ToolCall) (map[string]any, string) {
	t, ok := byName[call.Name]
	if !ok {
		names := make([]string, 0, len(byName))
		for n := range byName {
			names = append(names, n)
		}
		sort.Strings(names)
		return nil, fmt.Sprintf("error: unknown tool %q; available tools: %s. Nothing was run.", call.Name, strings.Join(names, ", "))
	}
	raw := call.Args
	if len(strings.TrimSpace(string(raw))) == 0 {
		raw = json.RawMessage(`{}`)
	}
	var args map[string]any
	if err := json.Unmarshal(raw, &args); err != nil || args == nil {
		return nil, fmt.Sprintf("error: the arguments of %s are not a JSON object; send one matching this schema: %s. Nothing was run.", call.Name, t.Spec.Parameters)
	}
	var s schema
	if err := json.Unmarshal(t.Spec.Parameters, &s); err != nil {
		return nil, fmt.Sprintf("error: tool %s has an unreadable schema: %v", call.Name, err)
	}
	if msg := s.check("arguments", args); msg != "" {
		return nil, fmt.Sprintf("error: invalid arguments for %s: %s; expected: %s. Nothing was run.", call.Name, msg, t.Spec.Parameters)
	}
	return args, ""
}

func (s *schema) check(at string, v any) string {
	if s == nil {
		return ""
	}
	if len(s.Enum) > 0 {
		found := false
		for _, e := range s.Enum {
			if fmt.Sprint(e) == fmt.Sprint(v) {
				found = true
			}
		}
		if !found {
			return fmt.Sprintf("%s must be one of %v", at, s.Enum)
		}
	}
	switch s.Type {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return at + " must be an object"
		}
		for _, r := range s.Required {
			if _, ok := m[r]; !ok {
				return fmt.Sprintf("missing required property %q", r)
			}
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ps, known := s.Properties[k]
			if !known {
				if s.AdditionalProperties != nil && !*s.AdditionalProperties {
					return fmt.Sprintf("unknown property %q", k)
				}
				continue
			}
			if msg := ps.check(fmt.Sprintf("property %q", k), m[k]); msg != "" {
				return msg
			}
		}
	case "string":
		if _, ok := v.(string); !ok {
			return at + " must be a string"
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return at + " must be a boolean"
		}
	case "number", "integer":
		f, ok := v.(float64)
		if !ok || (s.Type == "integer" && f != float64(int64(f))) {
			return at + " must be a " + s.Type
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			return at + " must be an array"
		}
		for i, e := range a {
			if msg := s.Items.check(fmt.Sprintf("%s[%d]", at, i), e); msg != "" {
				return msg
			}
		}
	}
	return ""
}
