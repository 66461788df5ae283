package evolve

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"ratchet/harness/fakemodel"
)

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..")
}

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		if err := writeFile(filepath.Join(root, name), []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
}

const (
	buggy   = "package m\n\n// Double returns 2x.\nfunc Double(x int) int { return x + x + 1 }\n"
	fixed   = "package m\n\n// Double returns 2x.\nfunc Double(x int) int { return x + x }\n"
	public  = "package m\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) {\n\tif Double(2) != 4 {\n\t\tt.Fatal(Double(2))\n\t}\n}\n"
	hiddenT = "package m\n\nimport \"testing\"\n\nfunc TestThree(t *testing.T) {\n\tif Double(3) != 6 {\n\t\tt.Fatal(Double(3))\n\t}\n}\n"
)

func addTask(t *testing.T, suite, split, id string) {
	write(t, filepath.Join(suite, split, id), map[string]string{
		"task.toml":            "prompt = \"Double is wrong in " + id + ". Fix it.\"\ntest = \"go test ./...\"\n",
		"repo/go.mod":          "module example.com/" + id + "\n\ngo 1.26\n",
		"repo/m.go":            buggy,
		"repo/m_test.go":       public,
		"hidden/m_test.go":     public,
		"hidden/three_test.go": hiddenT,
		"reference/m.go":       fixed,
	})
}

// taskModel fixes Double when the system prompt asks for care (double-c also
// needs thoroughness), and gives up otherwise: a harness edit that helps.
func taskModel(r fakemodel.Request) fakemodel.Step {
	body := string(r.Body)
	switch {
	case !strings.Contains(body, "CAREFUL"), strings.Contains(body, "wrong in double-c") && !strings.Contains(body, "THOROUGH"):
		return fakemodel.Step{Text: "I give up.", In: 40, Out: 4}
	case strings.Contains(body, "wrote "):
		return fakemodel.Step{Text: "Fixed.", In: 60, Out: 4}
	}
	args, _ := json.Marshal(map[string]string{"path": "m.go", "content": fixed})
	return fakemodel.Step{Calls: []fakemodel.Call{{Name: "write_file", Args: string(args)}}, In: 50, Out: 30}
}

// evolver is the scripted evolver model: it writes the files of the current
// plan and a hypothesis, then stops.
type evolver struct {
	mu   sync.Mutex
	plan map[string]string
	hyp  string
	seen int
}

func (e *evolver) step(r fakemodel.Request) fakemodel.Step {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.seen++
	if strings.Contains(string(r.Body), "wrote ") {
		return fakemodel.Step{Text: "Done.", In: 500, Out: 10}
	}
	var calls []fakemodel.Call
	for path, content := range e.plan {
		args, _ := json.Marshal(map[string]string{"path": path, "content": content})
		calls = append(calls, fakemodel.Call{ID: "toolu_" + path, Name: "write_file", Args: string(args)})
	}
	args, _ := json.Marshal(map[string]string{"path": "HYPOTHESIS.md", "content": e.hyp})
	calls = append(calls, fakemodel.Call{ID: "toolu_hyp", Name: "write_file", Args: string(args)})
	return fakemodel.Step{Calls: calls, In: 900, Out: 200}
}

func repeat(s fakemodel.Step, n int) []fakemodel.Step {
	out := make([]fakemodel.Step, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestEvolveRounds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the anchor and sandboxes")
	}
	root := repoRoot()
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "anchor"), "./cmd/anchor")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build anchor: %v\n%s", err, out)
	}
	tasks := filepath.Join(t.TempDir(), "suite")
	addTask(t, tasks, "train", "double-a")
	addTask(t, tasks, "train", "double-b")
	addTask(t, tasks, "train", "double-c")
	addTask(t, tasks, "holdout", "double-h")
	harness := filepath.Join(t.TempDir(), "harness")
	if err := copyDir(filepath.Join(root, "harness"), harness); err != nil {
		t.Fatal(err)
	}
	tm, err := fakemodel.Start(repeat(fakemodel.Step{Func: taskModel}, 10000)...)
	if err != nil {
		t.Fatal(err)
	}
	defer tm.Close()
	ev := &evolver{}
	em, err := fakemodel.Start(repeat(fakemodel.Step{Func: ev.step}, 10000)...)
	if err != nil {
		t.Fatal(err)
	}
	defer em.Close()

	home := t.TempDir()
	environ := append(os.Environ(), "MODEL_API=openai", "MODEL_URL="+tm.URL, "MODEL_NAME=scripted-task", "MODEL_OPTIONS=",
		"EVOLVE_MODEL_API=anthropic", "EVOLVE_MODEL_URL="+em.URL, "EVOLVE_MODEL_NAME=scripted-evolver", "ANCHOR_JOBS=2")
	var out bytes.Buffer
	c := Config{Anchor: filepath.Join(bin, "anchor"), Home: home, Tasks: tasks, Harness: harness, TaskEnv: environ,
		EvolveEnv: evolveEnv(environ), RoundBudget: 50000, DailyBudget: 1 << 40, MaxTraces: 4, TestCommand: "go build ./...", Out: &out}
	ctx := context.Background()
	if _, err := c.anchor(ctx, c.TaskEnv, "init", "--harness", harness); err != nil {
		t.Fatal(err)
	}
	prompt := func() string { b, _ := os.ReadFile(filepath.Join(harness, "system_prompt.md")); return string(b) }
	memory, _ := os.ReadFile(filepath.Join(harness, "memory", "memory.go"))
	base := prompt()

	rounds := []struct {
		plan     map[string]string
		decision string
		reason   string
	}{
		{map[string]string{"system_prompt.md": base + "Be CAREFUL: read the code before you change it.\n"}, "accept", "train 0.000 -> 0.667, holdout 0.000 -> 1.000"},
		{nil, "reject", "train did not improve: 0.667 -> 0.667"},
		{nil, "reject", `task-specific string in the diff: "double-a"`},
		{nil, "refused", "changed 2 files"},
	}
	for i, want := range rounds {
		switch i {
		case 1:
			want.plan = map[string]string{"system_prompt.md": prompt() + "Keep replies short.\n"}
		case 2:
			want.plan = map[string]string{"system_prompt.md": prompt() + "When the task is double-a, open m.go first.\n"}
		case 3:
			want.plan = map[string]string{"system_prompt.md": prompt() + "Plan first.\n", "memory/memory.go": string(memory) + "\n// notes\n"}
		}
		ev.mu.Lock()
		ev.plan, ev.hyp = want.plan, "Round hypothesis "+string(rune('A'+i))
		ev.mu.Unlock()
		r := c.Round(ctx)
		if err := c.record(r); err != nil {
			t.Fatal(err)
		}
		if r.Decision != want.decision || !strings.Contains(r.Reason, want.reason) {
			t.Fatalf("round %d: %s (%s), want %s (%s)", i+1, r.Decision, r.Reason, want.decision, want.reason)
		}
		if r.Hypothesis != "Round hypothesis "+string(rune('A'+i)) || len(r.TraceIDs) == 0 || r.Tokens == 0 {
			t.Errorf("round %d record = %+v", i+1, r)
		}
		if i == 0 && (!strings.Contains(prompt(), "CAREFUL") || r.Component != "system_prompt.md") {
			t.Errorf("after an accepted round harness/ was not refreshed: %q", prompt())
		}
	}

	// The ledger: baseline, accept, two rejections; the refused round never
	// reached apply.
	logOut, err := c.anchor(ctx, c.TaskEnv, "log", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var gens []struct {
		Gen       int
		Decision  string
		Reason    string
		Component string
		Head      bool
		TraceIDs  []string
	}
	if err := json.Unmarshal(logOut, &gens); err != nil {
		t.Fatal(err)
	}
	decisions := []string{}
	for _, g := range gens {
		decisions = append(decisions, g.Decision)
	}
	if strings.Join(decisions, ",") != "baseline,accept,reject,reject" || !gens[1].Head || gens[1].Component != "system_prompt.md" || len(gens[1].TraceIDs) == 0 {
		t.Fatalf("ledger = %+v", gens)
	}
	hist, err := History(home)
	if err != nil || len(hist) != 4 || hist[3].Decision != "refused" || hist[3].Gen != nil {
		t.Fatalf("history = %+v, %v", hist, err)
	}
	var table bytes.Buffer
	if err := PrintHistory(home, &table); err != nil || !strings.Contains(table.String(), "refused") || !strings.Contains(table.String(), "Round hypothesis A") {
		t.Errorf("history table:\n%s", table.String())
	}

	// STOP halts before the next round; nothing is recorded.
	os.WriteFile(filepath.Join(home, "STOP"), nil, 0o644)
	out.Reset()
	if err := c.Run(ctx, 3, false); err != nil || !strings.Contains(out.String(), "STOP exists") {
		t.Errorf("STOP: %v %q", err, out.String())
	}
	if h, _ := History(home); len(h) != 4 {
		t.Errorf("a round ran despite STOP")
	}
}

func TestEvolveEnv(t *testing.T) {
	got := evolveEnv([]string{"PATH=/bin", "MODEL_API=openai", "MODEL_NAME=small", "MODEL_API_KEY=k1", "EVOLVE_MODEL_NAME=big", "EVOLVE_MODEL_API_KEY=k2"})
	joined := "," + strings.Join(got, ",") + ","
	for _, want := range []string{",PATH=/bin,", ",MODEL_API=openai,", ",MODEL_NAME=big,", ",MODEL_API_KEY=k2,"} {
		if !strings.Contains(joined, want) {
			t.Errorf("evolveEnv = %v, missing %s", got, want)
		}
	}
	if strings.Contains(joined, "small") || strings.Contains(joined, "k1") {
		t.Errorf("evolveEnv kept the task model's settings: %v", got)
	}
}
