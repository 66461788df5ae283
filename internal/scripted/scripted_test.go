package scripted

import (
	"encoding/json"
	"strings"
	"testing"

	"ratchet/harness/fakemodel"
)

// evolveRequest is an Anthropic messages body after the evolver's reads,
// with the four files' contents as tool results.
func evolveRequest(t *testing.T, history, prompt string) fakemodel.Request {
	t.Helper()
	var results []map[string]any
	for i, content := range []string{"# The evolve workspace", history, "| task | repeat |", prompt} {
		results = append(results, map[string]any{"type": "tool_result", "tool_use_id": "t" + string(rune('0'+i)), "content": content})
	}
	body, err := json.Marshal(map[string]any{"system": "You fix Go code.", "messages": []any{
		map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "This folder is a workspace..."}}},
		map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "Reading."}}},
		map[string]any{"role": "user", "content": results},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return fakemodel.Request{Path: "/v1/messages", Body: body}
}

func TestScriptedEvolver(t *testing.T) {
	const prompt = "You are careful.\n"
	first := evolverReply(DemoPhrase, fakemodel.Request{Body: []byte(`{"messages":[{"role":"user","content":"go"}]}`)})
	if len(first.Calls) != len(evolverReads) {
		t.Fatalf("first reply: %d calls, want a read of each of %v", len(first.Calls), evolverReads)
	}
	for _, tc := range []struct {
		name, history, prompt, wantEdit string
	}{
		{"nothing tried yet: the neutral edit", "| gen | decision |\n", prompt, neutralEdit},
		{"after a rejection: the phrase", "| 1 | rejected | system_prompt.md | 3 | 2 | Shorter replies | gen-001/ |\n", prompt, DemoPhrase},
		{"the phrase is in: no edit", "| 1 | rejected |", prompt + DemoPhrase + "\n", ""},
	} {
		step := evolverReply(DemoPhrase, evolveRequest(t, tc.history, tc.prompt))
		if tc.wantEdit == "" {
			if len(step.Calls) != 0 {
				t.Errorf("%s: %d calls", tc.name, len(step.Calls))
			}
			continue
		}
		if len(step.Calls) != 2 {
			t.Fatalf("%s: %d calls, want the prompt and HYPOTHESIS.md", tc.name, len(step.Calls))
		}
		var args struct{ Path, Content string }
		json.Unmarshal([]byte(step.Calls[0].Args), &args)
		if args.Path != "harness/system_prompt.md" || args.Content != prompt+tc.wantEdit+"\n" {
			t.Errorf("%s: wrote %s = %q", tc.name, args.Path, args.Content)
		}
		json.Unmarshal([]byte(step.Calls[1].Args), &args)
		if args.Path != "HYPOTHESIS.md" || strings.TrimSpace(args.Content) == "" {
			t.Errorf("%s: hypothesis %s = %q", tc.name, args.Path, args.Content)
		}
	}
}
