// Package scripted holds the demo's stand-ins for models, servers in both
// wire formats that follow a script: the Oracle, a task model whose success
// depends on the harness's system prompt, and the evolver, which reads the
// evolve workspace and proposes first a neutral edit of the system prompt
// (the judge rejects it), then, having read in history/ that it was
// rejected, the phrase the oracle rewards (the judge accepts it).
package scripted

import (
	"encoding/json"
	"strings"

	"ratchet/harness/fakemodel"
)

// DemoPhrase is the sentence the demo's oracle rewards: a system prompt
// that holds it makes the oracle solve every task.
const DemoPhrase = "Before you change any file, run the tests and read the whole failing output."

// neutralEdit is the evolver's first idea: it changes every coin of the
// oracle but helps no task on purpose.
const neutralEdit = "Keep your replies short and plain."

// StartEvolver serves the scripted evolver on a loopback port. phrase is
// what it adds to the system prompt once history/ shows a rejection.
func StartEvolver(phrase string) (*fakemodel.Server, error) {
	reply := func(r fakemodel.Request) fakemodel.Step { return evolverReply(phrase, r) }
	steps := make([]fakemodel.Step, 1<<20)
	for i := range steps {
		steps[i] = fakemodel.Step{Func: reply}
	}
	return fakemodel.Start(steps...)
}

func call(name string, args map[string]string) fakemodel.Call {
	b, _ := json.Marshal(args)
	return fakemodel.Call{Name: name, Args: string(b)}
}

// The workspace files the evolver reads, in order.
var evolverReads = []string{"README.md", "history/README.md", "traces/README.md", "harness/system_prompt.md"}

func evolverReply(phrase string, r fakemodel.Request) fakemodel.Step {
	msgs := r.Messages()
	in := len(r.Body) / 4
	if len(msgs) <= 1 {
		var calls []fakemodel.Call
		for _, p := range evolverReads {
			calls = append(calls, call("read_file", map[string]string{"path": p}))
		}
		return fakemodel.Step{Text: "Reading the workspace: the guide, the history, the traces and the system prompt.", Calls: calls, In: in, Out: 80}
	}
	if len(msgs) > 3 {
		return fakemodel.Step{Text: "Done: one change, one hypothesis.", In: in, Out: 20}
	}
	results := toolResults(msgs)
	if len(results) < len(evolverReads) {
		return fakemodel.Step{Text: "(scripted evolver) unexpected state; stopping.", In: in, Out: 5}
	}
	history, prompt := results[1], results[3]
	var edit, hyp string
	switch {
	case strings.Contains(prompt, phrase):
		return fakemodel.Step{Text: "(scripted evolver) The prompt already says what I would add; no change.", In: in, Out: 20}
	case !strings.Contains(history, "| rejected |"):
		edit = neutralEdit
		hyp = "Shorter replies leave the model more of its context for the code, so it should fix more tasks."
	default:
		edit = phrase
		hyp = "history/ shows that asking for shorter replies was rejected: it fixed some training tasks and broke others, " +
			"noise rather than a change in what the agent does. The failed traces show the agent reading the code and giving up " +
			"without running the tests. Different this time: tell it to run the tests and read the failing output before it changes anything."
	}
	calls := []fakemodel.Call{
		call("write_file", map[string]string{"path": "harness/system_prompt.md", "content": strings.TrimRight(prompt, "\n") + "\n" + edit + "\n"}),
		call("write_file", map[string]string{"path": "HYPOTHESIS.md", "content": hyp + "\n"}),
	}
	return fakemodel.Step{Text: "Proposing one change.", Calls: calls, In: in, Out: 400}
}

// toolResults returns the contents of the tool results in a request, in
// order, for either wire format.
func toolResults(msgs []json.RawMessage) []string {
	var out []string
	for _, raw := range msgs {
		var m struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		json.Unmarshal(raw, &m)
		var s string
		if m.Role == "tool" && json.Unmarshal(m.Content, &s) == nil {
			out = append(out, s)
			continue
		}
		var blocks []struct {
			Type    string `json:"type"`
			Content string `json:"content"`
		}
		if json.Unmarshal(m.Content, &blocks) == nil {
			for _, b := range blocks {
				if b.Type == "tool_result" {
					out = append(out, b.Content)
				}
			}
		}
	}
	return out
}
