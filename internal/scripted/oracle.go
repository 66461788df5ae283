package scripted

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"ratchet/anchor"
	"ratchet/harness/fakemodel"
)

// Oracle is a scripted task model whose success depends on the harness, the
// way a real model's does: it solves a task of Suite when the system prompt
// contains Phrase, or else when a deterministic coin keyed on the whole system
// prompt and the task id falls under Rate. So an edit that adds Phrase really
// helps, and any other edit of the prompt re-rolls every task's coin, as a
// changed prompt moves a real model's results.
//
// It lists the task root first (tasks that share a prompt are told apart by
// their files). Solving then means writing the files of the task's
// reference/ folder, read from the host: the oracle is a stand-in, not an
// agent. Otherwise it reads every file of the task's repo/ that is not a
// test, and gives up.
type Oracle struct {
	Suite  string  // a task suite: <Suite>/<split>/<id>/task.toml
	Phrase string  // a system prompt containing it solves every task; "" never does
	Rate   float64 // the chance of solving without Phrase, 0 to 1
	// Sample, when set, makes the oracle a sampling model: Phrase and Rate
	// give way to the sampler's chances, drawn afresh in every conversation.
	Sample *Sampler
}

// oracleTask is a task the oracle recognises by its prompt.
type oracleTask struct {
	id, prompt string
	reference  map[string][]byte
	repo       []string // the repo's files, sorted
	sources    []string // the repo's files that are not tests, sorted
}

// StartOracle loads the suite's tasks and serves the oracle on a loopback
// port, in both wire formats. It fails when the suite has no task.
func StartOracle(o Oracle) (*fakemodel.Server, error) {
	tomls, _ := filepath.Glob(filepath.Join(o.Suite, "*", "*", "task.toml"))
	if len(tomls) == 0 {
		return nil, fmt.Errorf("oracle: no tasks in %s; give a suite with <split>/<id>/task.toml", o.Suite)
	}
	var tasks []oracleTask
	for _, p := range tomls {
		t, err := anchor.LoadTask(filepath.Dir(p))
		if err != nil {
			return nil, fmt.Errorf("oracle: %w", err)
		}
		ref, err := anchor.ReadTree(filepath.Join(t.Dir, "reference"), false)
		if err != nil {
			return nil, fmt.Errorf("oracle: read the reference of %s: %w", t.ID, err)
		}
		repo, err := anchor.ReadTree(filepath.Join(t.Dir, "repo"), false)
		if err != nil {
			return nil, fmt.Errorf("oracle: read the repo of %s: %w", t.ID, err)
		}
		names := slices.Sorted(maps.Keys(repo))
		var sources []string
		for _, name := range names {
			if !strings.HasSuffix(name, "_test.go") {
				sources = append(sources, name)
			}
		}
		tasks = append(tasks, oracleTask{id: t.ID, prompt: strings.TrimSpace(t.Prompt), reference: ref, repo: names, sources: sources})
	}
	// The longest prompt first, so a prompt that begins another never wins.
	slices.SortFunc(tasks, func(a, b oracleTask) int { return len(b.prompt) - len(a.prompt) })
	reply := func(r fakemodel.Request) fakemodel.Step { return o.reply(tasks, r) }
	steps := make([]fakemodel.Step, 1<<20)
	for i := range steps {
		steps[i] = fakemodel.Step{Func: reply}
	}
	return fakemodel.Start(steps...)
}

// Solves reports whether the oracle solves task id under a system prompt.
func (o Oracle) Solves(system, id string) bool {
	if o.Phrase != "" && strings.Contains(system, o.Phrase) {
		return true
	}
	return coin(system, id) < o.Rate
}

// coin is a number in [0, 1) fixed by the system prompt and the task id.
func coin(system, id string) float64 {
	sum := sha256.Sum256([]byte(system + id))
	return float64(binary.BigEndian.Uint64(sum[:8])>>11) / (1 << 53)
}

func (o Oracle) reply(tasks []oracleTask, r fakemodel.Request) fakemodel.Step {
	c := parse(r.Body)
	in := len(r.Body) / 4
	var cands []oracleTask
	for _, t := range tasks {
		if strings.HasPrefix(strings.TrimSpace(c.firstUser), t.prompt) && (len(cands) == 0 || len(t.prompt) == len(cands[0].prompt)) {
			cands = append(cands, t)
		}
	}
	switch {
	case len(cands) == 0:
		return fakemodel.Step{Text: "(oracle) I do not know this task; stopping.", In: in, Out: 10}
	case len(c.results) == 0:
		return fakemodel.Step{Text: "Looking at the files.", Calls: []fakemodel.Call{call("list_dir", map[string]string{})}, In: in, Out: 20}
	}
	t := identify(cands, c.results[0])
	solve := o.Solves(c.system, t.id)
	if o.Sample != nil {
		// The draw is made once, when the listing comes back; later turns
		// follow what this conversation's model already did.
		solve = c.wrote
		if len(c.results) == 1 {
			solve = o.Sample.draw(o.Phrase, c.system, t.id)
		}
	}
	switch {
	case solve && len(c.results) == 1:
		var calls []fakemodel.Call
		for _, name := range slices.Sorted(maps.Keys(t.reference)) {
			c := call("write_file", map[string]string{"path": name, "content": string(t.reference[name])})
			c.ID = fmt.Sprintf("call_w%d", len(calls))
			calls = append(calls, c)
		}
		return fakemodel.Step{Text: "Writing the fix.", Calls: calls, In: in, Out: 200}
	case solve && !c.tested: // as an agent checks its fix
		return fakemodel.Step{Text: "Running the tests.", Calls: []fakemodel.Call{call("run_tests", map[string]string{})}, In: in, Out: 15}
	case solve:
		return fakemodel.Step{Text: "(oracle) Fixed: wrote the corrected files.", In: in, Out: 10}
	case len(c.results) == 1 && len(t.sources) > 0:
		var calls []fakemodel.Call
		for i, name := range t.sources {
			c := call("read_file", map[string]string{"path": name})
			c.ID = fmt.Sprintf("call_r%d", i)
			calls = append(calls, c)
		}
		return fakemodel.Step{Text: "Reading the code.", Calls: calls, In: in, Out: 40}
	}
	return fakemodel.Step{Text: "(oracle) I cannot fix this; stopping.", In: in, Out: 10}
}

// identify tells apart tasks that share a prompt by the listing of the task
// root: the task most of whose files the listing names, the first on a tie.
func identify(cands []oracleTask, listing string) oracleTask {
	lines := map[string]bool{}
	for _, l := range strings.Split(listing, "\n") {
		lines[strings.TrimSpace(l)] = true
	}
	best, bestScore := cands[0], -1
	for _, t := range cands {
		score := 0
		for _, name := range t.repo {
			if lines[name] {
				score++
			}
		}
		score -= len(t.repo) // a task with files the listing lacks is less likely
		if score > bestScore {
			best, bestScore = t, score
		}
	}
	return best
}

// conversation is what the oracle reads of a request, in either wire format.
type conversation struct {
	system, firstUser string
	results           []string // tool results, in order
	wrote, tested     bool     // an assistant turn called write_file; run_tests
}

// parse reads the system prompt, the first user text and the tool results
// from an OpenAI chat completions or Anthropic messages body.
func parse(body []byte) conversation {
	var req struct {
		System   string `json:"system"`
		Messages []struct {
			Role      string          `json:"role"`
			Content   json.RawMessage `json:"content"`
			ToolCalls []struct {
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	json.Unmarshal(body, &req)
	c := conversation{system: req.System}
	called := func(role, name string) {
		c.wrote = c.wrote || role == "assistant" && name == "write_file"
		c.tested = c.tested || role == "assistant" && name == "run_tests"
	}
	firstSeen := false
	for _, m := range req.Messages {
		var text string
		isText := json.Unmarshal(m.Content, &text) == nil
		var blocks []struct {
			Type    string `json:"type"`
			Text    string `json:"text"`
			Content string `json:"content"`
			Name    string `json:"name"`
		}
		if !isText && json.Unmarshal(m.Content, &blocks) == nil {
			for _, b := range blocks {
				switch b.Type {
				case "text":
					text += b.Text
				case "tool_result":
					c.results = append(c.results, b.Content)
				case "tool_use":
					called(m.Role, b.Name)
				}
			}
		}
		for _, tc := range m.ToolCalls {
			called(m.Role, tc.Function.Name)
		}
		switch m.Role {
		case "system":
			c.system = text
		case "tool":
			c.results = append(c.results, text)
		case "user":
			if !firstSeen {
				c.firstUser, firstSeen = text, true
			}
		}
	}
	return c
}
