package anchor

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"ratchet/harness/fakemodel"
)

// coinModel is a scripted model whose outcome on a task is a fixed coin of
// its system prompt and the task's prompt, as a real model's is a fixed
// function of its prompt at temperature 0: any change of the system
// prompt, even a meaningless one, redraws every task's coin. A system
// prompt holding helps makes it solve every task. The baseline harness's
// own prompt draws no coin: it fails exactly the gate suite's tasks with an
// odd number (3 of 6 train, 6 of 12 holdout), so that a candidate that
// helps has the same room to show it whatever the harness's prompt says
// (a drawn pattern changed with every edit of harness/system_prompt.md,
// and with it whether a helpful candidate could pass at all).
func coinModel(helps string) fakemodel.Step {
	base := strings.TrimSpace(string(must(os.ReadFile(filepath.Join("..", "harness", "system_prompt.md")))))
	return fakemodel.Step{Func: func(r fakemodel.Request) fakemodel.Step {
		body := string(r.Body)
		msgs := r.Messages()
		if strings.Contains(body, "wrote ") || len(msgs) < 2 {
			return fakemodel.Step{Text: "Done.", In: 80, Out: 5}
		}
		// The coin hashes the two messages as the harness client encodes
		// them, whatever order the proxy forwards their keys in.
		var m [2]struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		}
		json.Unmarshal(msgs[0], &m[0])
		json.Unmarshal(msgs[1], &m[1])
		sum := sha256.Sum256(append(must(json.Marshal(m[0])), must(json.Marshal(m[1]))...))
		fails := sum[0] >= 128
		if n := gateNumber.FindStringSubmatch(m[1].Content); n != nil && strings.TrimSpace(m[0].Content) == base {
			fails = (n[1][len(n[1])-1]-'0')%2 == 1
		}
		if !strings.Contains(m[0].Content, helps) && fails {
			return fakemodel.Step{Text: "I give up.", In: 50, Out: 5}
		}
		args, _ := json.Marshal(map[string]string{"path": "sum.go", "content": fixedSum})
		return fakemodel.Step{Calls: []fakemodel.Call{{Name: "write_file", Args: string(args)}}, In: 60, Out: 40}
	}}
}

// gateNumber finds a gate suite task's number in its prompt.
var gateNumber = regexp.MustCompile(`gate-[th](\d+)`)

// gateEnv is a ledger over a suite of small tasks (6 train, 12 holdout)
// scored by the coin model, with the default alpha.
func gateEnv(t *testing.T, model fakemodel.Step) (*testEnv, string) {
	t.Helper()
	return gateSuite(t, model, addTask)
}

// gateSuite is gateEnv with tasks made by add.
func gateSuite(t *testing.T, model fakemodel.Step, add func(testing.TB, string, string, string) string) (*testEnv, string) {
	t.Helper()
	e := newEnv(t, repeat(model, 1<<16)...)
	for i := range 6 {
		add(t, e.suite, "train", fmt.Sprintf("gate-t%02d", i))
	}
	for i := range 12 {
		add(t, e.suite, "holdout", fmt.Sprintf("gate-h%02d", i))
	}
	dir := copyHarness(t)
	if err := e.a.Init(ctx(), dir); err != nil {
		t.Fatal(err)
	}
	return e, dir
}

// The A/A game: candidates that only add a neutral sentence redraw every
// coin. The rule on the means alone accepts those whose draws happen to be good;
// the gate must not. Then a candidate that truly helps is accepted. The
// game is about the gate's statistics, which see a pass or a fail per task:
// its tasks are scored by exit status, without go test, to keep it quick.
func TestGateAAGame(t *testing.T) {
	slow(t)
	t.Parallel()
	helps := "Always run the tests after every edit."
	e, dir := gateSuite(t, coinModel(helps), addExitTask)
	accepted, meansUp := 0, 0
	for i := range 20 {
		prompt := readHarness(t, dir, "system_prompt.md")
		diff := makeDiff(t, dir, map[string]string{"system_prompt.md": prompt + fmt.Sprintf("Note %d: stay calm.\n", i)})
		if err := e.a.Apply(ctx(), e.candidate(t, "system_prompt.md", diff)); err != nil {
			t.Fatal(err)
		}
		g := e.last(t)
		if g.HoldoutPost != nil && *g.HoldoutPost > *g.HoldoutPre {
			meansUp++ // the rule on the means alone would have accepted this one
		}
		if g.Decision == "accept" {
			accepted++
		}
		t.Logf("neutral %2d: %-6s %s", i, g.Decision, g.Reason)
	}
	t.Logf("A/A: %d of 20 neutral candidates accepted; %d would have been by the means alone", accepted, meansUp)
	if accepted > 1 {
		t.Errorf("the gate accepted %d of 20 neutral candidates; at most 1 expected", accepted)
	}
	prompt := readHarness(t, dir, "system_prompt.md")
	if err := e.a.Apply(ctx(), e.candidate(t, "system_prompt.md", makeDiff(t, dir, map[string]string{"system_prompt.md": prompt + helps + "\n"}))); err != nil {
		t.Fatal(err)
	}
	g := e.last(t)
	t.Logf("helpful: %s %s", g.Decision, g.Reason)
	if g.Decision != "accept" || *g.HoldoutP > 0.05 {
		t.Errorf("the helpful candidate: %s: %s", g.Decision, g.Reason)
	}
}

func TestSignTest(t *testing.T) {
	for _, tt := range []struct {
		fixed, broken int
		want          float64
	}{
		{0, 0, 1}, {1, 0, 0.5}, {5, 0, 1.0 / 32}, {3, 1, 5.0 / 16}, {6, 1, 8.0 / 128}, {0, 3, 1}, {10, 10, 0.5880985260009766},
	} {
		if got := SignTest(tt.fixed, tt.broken); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("SignTest(%d, %d) = %v, want %v", tt.fixed, tt.broken, got, tt.want)
		}
	}
}

// addExitTask adds addTask's task, scored by its command's exit status
// instead of go test: does sum.go hold the fix?
func addExitTask(t testing.TB, suite, split, id string) string {
	t.Helper()
	dir := addTask(t, suite, split, id)
	if err := os.RemoveAll(filepath.Join(dir, "hidden")); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"task.toml": "prompt = \"\"\"\nSum is wrong for " + id + ". Fix it.\n\"\"\"\ntest = \"grep -q 'i := 0' sum.go\"\ntimeout = \"120s\"\n"})
	return dir
}

// TestGate is the acceptance rule as a table, without a sandbox: each row is
// a split's paired per-unit scores and what the gate must decide.
func TestGate(t *testing.T) {
	ones := func(n int, v float64) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = v
		}
		return s
	}
	tests := []struct {
		name, split   string
		pre, post     []float64
		fixed, broken int
		reject        string // "" accepts; else a part of the reason
	}{
		{"a tie rejects", "holdout", []float64{0, 1, 0.5}, []float64{0, 1, 0.5}, 0, 0, "a tie rejects"},
		{"a NaN rejects", "train", []float64{0, 1}, []float64{math.NaN(), 1}, 0, 0, "did not improve"},
		{"train needs only a higher mean", "train", []float64{0, 0, 1}, []float64{1, 0, 1}, 1, 0, ""},
		{"five of five fixed beat noise", "holdout", ones(5, 0), ones(5, 1), 5, 0, ""},
		{"four of four do not", "holdout", ones(4, 0), ones(4, 1), 4, 0, "p = 0.062 > 0.05"},
		{"six fixed, three broken do not", "holdout",
			append(ones(6, 0), ones(3, 1)...), append(ones(6, 1), ones(3, 0)...), 6, 3, "p = 0.254 > 0.05"},
		{"more fixed but a lower mean", "train", []float64{0, 0, 1}, []float64{0.5, 0.25, 0}, 2, 1, "did not improve"},
		{"a change below rounding is no change", "holdout", []float64{0.5}, []float64{0.5 + 1e-12}, 0, 0, "a tie"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, reason := Gate(tt.split, tt.pre, tt.post, 0.05)
			if e.Fixed != tt.fixed || e.Broken != tt.broken {
				t.Errorf("fixed %d, broken %d; want %d, %d", e.Fixed, e.Broken, tt.fixed, tt.broken)
			}
			if want := SignTest(tt.fixed, tt.broken); e.P != want {
				t.Errorf("p = %v, want %v", e.P, want)
			}
			switch {
			case tt.reject == "" && reason != "":
				t.Errorf("rejected (%s), want an accept", reason)
			case tt.reject != "" && !strings.Contains(reason, tt.reject):
				t.Errorf("reason %q, want one holding %q", reason, tt.reject)
			}
		})
	}
}

// Six variants of one kind that all flip together are one witness, not six:
// grouped, the gate counts one fixed group and the sign test cannot pass on
// it, where the same runs ungrouped would pass (six of six fixed, p = 1/64).
func TestGateCountsGroups(t *testing.T) {
	runs := func(score float64, grouped bool) []Run {
		var rs []Run
		for i := range 6 {
			r := Run{TaskID: fmt.Sprintf("kind-v%d", i), Score: score}
			if grouped {
				r.Group = "kind"
			}
			rs = append(rs, r)
		}
		for i := range 4 { // four other kinds, unchanged
			rs = append(rs, Run{TaskID: fmt.Sprintf("other%d-v0", i), Group: fmt.Sprintf("other%d", i), Score: 0.5})
		}
		return rs
	}
	e, reason := GateRuns("holdout", runs(0, true), runs(1, true), 0.05)
	if e.Fixed != 1 || e.Broken != 0 || e.P != 0.5 || !strings.Contains(reason, "p = 0.500 > 0.05") {
		t.Errorf("grouped: %+v, %q; want one fixed group and a reject", e, reason)
	}
	if math.Abs(e.Pre-0.4) > 1e-12 || math.Abs(e.Post-0.6) > 1e-12 { // five groups: 0, .5, .5, .5, .5 -> 1, .5, ...
		t.Errorf("grouped means %v -> %v, want the mean over groups 0.4 -> 0.6", e.Pre, e.Post)
	}
	e, reason = GateRuns("holdout", runs(0, false), runs(1, false), 0.05)
	if e.Fixed != 6 || reason != "" {
		t.Errorf("ungrouped: %+v, %q; want six fixed tasks and an accept", e, reason)
	}
	// A task's repeats are averaged before its group: 1 and 0 make 0.5.
	rep := []Run{{TaskID: "a", Group: "g", Score: 1}, {TaskID: "a", Group: "g", Score: 0}, {TaskID: "b", Group: "g", Score: 1}}
	if m := groupMeans(rep); m["g"] != 0.75 {
		t.Errorf("group mean %v, want 0.75", m["g"])
	}
}

// helpsModel fixes a task when the system prompt holds helps and the task's
// prompt holds task; otherwise it gives up.
func helpsModel(helps, task string) fakemodel.Step {
	return fakemodel.Step{Func: func(r fakemodel.Request) fakemodel.Step {
		msgs := r.Messages()
		if len(msgs) < 2 || !strings.Contains(string(msgs[0]), helps) || !strings.Contains(string(msgs[1]), task) {
			return fakemodel.Step{Text: "I give up.", In: 50, Out: 5}
		}
		return fixer("").Func(r)
	}}
}

// Through real applies: an edit that helps only one kind fixes its six
// holdout variants at once. Counted as tasks that is six fixes and p = 1/64,
// an accept; the gate counts the kind once (task.toml's group), one fix of
// five groups, p = 0.5, and rejects.
func TestGateCountsAKindOnceThroughApply(t *testing.T) {
	slow(t)
	t.Parallel()
	const helps = "Read sum.go twice."
	model := helpsModel(helps, "wrong for kind-")
	e := newEnv(t, repeat(model, 1<<12)...)
	addExitTask(t, e.suite, "train", "kind-t0")
	addExitTask(t, e.suite, "train", "other-t0")
	for i := range 6 {
		dir := addExitTask(t, e.suite, "holdout", fmt.Sprintf("kind-h%d", i))
		b, _ := os.ReadFile(filepath.Join(dir, "task.toml"))
		writeFiles(t, dir, map[string]string{"task.toml": string(b) + "group = \"kind\"\n"})
	}
	for i := range 4 {
		addExitTask(t, e.suite, "holdout", fmt.Sprintf("other%d-h", i))
	}
	dir := copyHarness(t)
	if err := e.a.Init(ctx(), dir); err != nil {
		t.Fatal(err)
	}
	prompt := readHarness(t, dir, "system_prompt.md")
	if err := e.a.Apply(ctx(), e.candidate(t, "system_prompt.md", makeDiff(t, dir, map[string]string{"system_prompt.md": prompt + helps + "\n"}))); err != nil {
		t.Fatal(err)
	}
	g := e.last(t)
	if g.Decision != "reject" || *g.HoldoutFixed != 1 || *g.HoldoutBroken != 0 || *g.HoldoutP != 0.5 || !strings.Contains(g.Reason, "1 fixed, 0 broken, p = 0.500") {
		t.Errorf("the six variants of one kind counted as %v fixed: %s %s", *g.HoldoutFixed, g.Decision, g.Reason)
	}
	if math.Abs(*g.HoldoutPre-0) > 1e-12 || math.Abs(*g.HoldoutPost-0.2) > 1e-12 { // five groups, one of them solved
		t.Errorf("holdout %v -> %v, want the mean over groups 0 -> 0.2", *g.HoldoutPre, *g.HoldoutPost)
	}
}
