// Package scripted is the demo's stand-in for a model: a server in both wire
// formats that follows a fixed script. It shows the pipeline, not a score: as
// a task agent it looks around, runs the tests and gives up; as the evolver
// it proposes, in turn, a harmless prompt edit (which ties and is rejected),
// an edit that leaks a train task's name (rejected by the detector) and an
// edit of two files (refused before apply).
package scripted

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"ratchet/harness/fakemodel"
)

// Model decides each reply from the request alone, plus a count of evolve
// sessions seen so far.
type Model struct {
	mu       sync.Mutex
	sessions int
}

// Start serves the scripted model on a loopback port.
func Start() (*fakemodel.Server, error) {
	m := &Model{}
	steps := make([]fakemodel.Step, 1<<20)
	for i := range steps {
		steps[i] = fakemodel.Step{Func: m.reply}
	}
	return fakemodel.Start(steps...)
}

var taskID = regexp.MustCompile(`\| [0-9a-z]{16} \| ([a-z][a-z0-9-]+) \|`)

func call(name string, args map[string]string) fakemodel.Call {
	b, _ := json.Marshal(args)
	return fakemodel.Call{Name: name, Args: string(b)}
}

func (m *Model) reply(r fakemodel.Request) fakemodel.Step {
	body := string(r.Body)
	msgs := r.Messages()
	if !strings.Contains(body, "FAILED.md") {
		switch len(msgs) { // a task: look, test, give up
		case 1, 2:
			return fakemodel.Step{Text: "Looking at the files.", Calls: []fakemodel.Call{call("list_dir", map[string]string{})}, In: 400, Out: 20}
		case 3, 4:
			return fakemodel.Step{Text: "Running the tests.", Calls: []fakemodel.Call{call("run_tests", map[string]string{})}, In: 900, Out: 20}
		}
		return fakemodel.Step{Text: "(scripted model) I cannot fix this; stopping.", In: 1500, Out: 15}
	}
	if len(msgs) <= 2 {
		m.mu.Lock()
		m.sessions++
		m.mu.Unlock()
		return fakemodel.Step{Text: "Reading the failures.", Calls: []fakemodel.Call{call("read_file", map[string]string{"path": "FAILED.md"}),
			call("read_file", map[string]string{"path": "system_prompt.md"}), call("read_file", map[string]string{"path": "memory/memory.go"})}, In: 3000, Out: 60}
	}
	if strings.Contains(body, "wrote ") {
		return fakemodel.Step{Text: "Done: one change, one hypothesis.", In: 6000, Out: 20}
	}
	results := toolResults(msgs)
	if len(results) < 3 {
		return fakemodel.Step{Text: "(scripted model) unexpected state; stopping.", In: 100, Out: 5}
	}
	failed, prompt, memory := results[0], results[1], results[2]
	m.mu.Lock()
	n := m.sessions
	m.mu.Unlock()
	var calls []fakemodel.Call
	hyp := ""
	switch (n - 1) % 3 {
	case 0:
		hyp = "The agent edits before reading the whole failing test output; telling it to read the output first should help."
		calls = append(calls, call("write_file", map[string]string{"path": "system_prompt.md", "content": prompt + "\nRead the whole failing test output before you change any file.\n"}))
	case 1:
		id := "the-task"
		if m := taskID.FindStringSubmatch(failed); m != nil {
			id = m[1]
		}
		hyp = "A hint naming a failed task would fix it (a leak the anchor must refuse)."
		calls = append(calls, call("write_file", map[string]string{"path": "system_prompt.md", "content": prompt + fmt.Sprintf("\nIf the task is %s, look at its tests first.\n", id)}))
	default:
		hyp = "Remembering past tasks and a planning step together should help (two files: the evolver must refuse it)."
		calls = append(calls, call("write_file", map[string]string{"path": "system_prompt.md", "content": prompt + "\nPlan before you act.\n"}),
			call("write_file", map[string]string{"path": "memory/memory.go", "content": memory + "\n// Remember what worked.\n"}))
	}
	calls = append(calls, call("write_file", map[string]string{"path": "HYPOTHESIS.md", "content": hyp + "\n"}))
	return fakemodel.Step{Text: "Proposing a change.", Calls: calls, In: 8000, Out: 900}
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
