package evolve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"ratchet/anchor"
	"ratchet/harness/agent"
	"ratchet/harness/core"
	"ratchet/harness/fakemodel"
	"ratchet/harness/tools"
	"ratchet/internal/ledgerdb"
	"ratchet/internal/scripted"
	"ratchet/internal/testtree"
)

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..")
}

// addTask writes a Double task. A big task's repo also holds a 24 KB table,
// which the oracle reads when it gives up: a tool result far over the
// harness's 6000-character display limit.
func addTask(t *testing.T, suite, split, id string, big bool) {
	t.Helper()
	changes := map[string]string{"reference/m_test.go": testtree.TestTwo}
	if big {
		var table strings.Builder
		for i := range 400 {
			fmt.Fprintf(&table, "row %03d: input %4d doubled is %5d, checked against the reference table\n", i, i, 2*i)
		}
		changes["repo/table.txt"] = table.String()
	}
	testtree.AddTask(t, suite, split, id, changes)
}

// evolver is the scripted evolver model: it reads the workspace's guides,
// then writes the files of the current plan and a hypothesis, then stops.
type evolver struct {
	mu   sync.Mutex
	plan map[string]string
	hyp  string
}

func (e *evolver) step(r fakemodel.Request) fakemodel.Step {
	e.mu.Lock()
	defer e.mu.Unlock()
	call := func(id, name string, args map[string]string) fakemodel.Call {
		b, _ := json.Marshal(args)
		return fakemodel.Call{ID: id, Name: name, Args: string(b)}
	}
	switch n := len(r.Messages()); {
	case n >= 5:
		return fakemodel.Step{Text: "Done.", In: 500, Out: 10}
	case n == 1:
		return fakemodel.Step{Text: "Reading the workspace.", In: 900, Out: 50, Calls: []fakemodel.Call{
			call("toolu_r1", "read_file", map[string]string{"path": "README.md"}),
			call("toolu_r2", "read_file", map[string]string{"path": "history/README.md"}),
			call("toolu_r3", "read_file", map[string]string{"path": "traces/README.md"})}}
	}
	var calls []fakemodel.Call
	for _, path := range slices.Sorted(maps.Keys(e.plan)) {
		calls = append(calls, call("toolu_"+filepath.Base(path), "write_file", map[string]string{"path": path, "content": e.plan[path]}))
	}
	calls = append(calls, call("toolu_hyp", "write_file", map[string]string{"path": "HYPOTHESIS.md", "content": e.hyp}))
	return fakemodel.Step{Calls: calls, In: 900, Out: 200}
}

func repeat(s fakemodel.Step, n int) []fakemodel.Step {
	out := make([]fakemodel.Step, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// count is how many of the tasks the oracle solves under a system prompt.
func count(o scripted.Oracle, system string, ids []string) (n int) {
	for _, id := range ids {
		if o.Solves(system, id) {
			n++
		}
	}
	return n
}

// breaksAny says whether a task solved under before is not under after.
func breaksAny(o scripted.Oracle, before, after string, ids []string) bool {
	for _, id := range ids {
		if o.Solves(before, id) && !o.Solves(after, id) {
			return true
		}
	}
	return false
}

// TestEvolveWorkspace plays rounds with scripted models, the oracle as the
// task model: a candidate that helps train but not holdout (rejected), a
// leak (rejected), a two-file edit (refused), the phrase the oracle rewards
// (accepted); then a dry run with a goal through the ratchet command. It
// checks what the evolver was shown: complete traces of failed and passed
// runs, readable whole through the harness's own read_file; every earlier
// candidate under history/; never a holdout task or number.
func TestEvolveWorkspace(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the anchor and sandboxes")
	}
	root := repoRoot()
	bin := binDir(t)
	suite := filepath.Join(t.TempDir(), "suite")
	train := []string{"double-a", "double-b", "double-c", "double-d"}
	holdout := []string{"double-h1", "double-h2", "double-h3", "double-h4", "double-h5", "double-h6"}
	for _, id := range train {
		addTask(t, suite, "train", id, true)
	}
	for _, id := range holdout {
		addTask(t, suite, "holdout", id, false)
	}
	const phrase = "Before you change a file, read the failing test and the code it calls."
	oracle := scripted.Oracle{Suite: suite, Phrase: phrase, Rate: 0.4}

	// Choose a baseline prompt under which the oracle fails some train tasks
	// and passes others and fails at least five holdout tasks (so the phrase
	// can pass the holdout test), and an edit that helps train but not holdout.
	harness := filepath.Join(t.TempDir(), "harness")
	if err := copyDir(filepath.Join(root, "harness"), harness); err != nil {
		t.Fatal(err)
	}
	base, _ := os.ReadFile(filepath.Join(harness, "system_prompt.md"))
	var baseline, trainOnly string
	for i := 0; i < 5000 && baseline == ""; i++ {
		p := fmt.Sprintf("%s\nStyle note %d: keep edits small.\n", base, i)
		if tr := count(oracle, p, train); tr >= 1 && tr <= 2 && count(oracle, p, holdout) <= 1 {
			baseline = p
		}
	}
	for i := 0; i < 5000 && trainOnly == "" && baseline != ""; i++ {
		p := fmt.Sprintf("%sAlso note %d: name things plainly.\n", baseline, i)
		// It fixes two train tasks and breaks none, so the staged screen sends it
		// on to holdout, where it does not help.
		if count(oracle, p, train) >= count(oracle, baseline, train)+2 && !breaksAny(oracle, baseline, p, train) &&
			count(oracle, p, holdout) <= count(oracle, baseline, holdout) {
			trainOnly = p
		}
	}
	if baseline == "" || trainOnly == "" {
		t.Fatal("no baseline or train-only prompt found for the oracle's coins")
	}
	if err := os.WriteFile(filepath.Join(harness, "system_prompt.md"), []byte(baseline), 0o644); err != nil {
		t.Fatal(err)
	}

	tm, err := scripted.StartOracle(oracle)
	if err != nil {
		t.Fatal(err)
	}
	defer tm.Close()
	ev := &evolver{}
	em, err := fakemodel.Start(repeat(fakemodel.Step{Func: ev.step}, 100000)...)
	if err != nil {
		t.Fatal(err)
	}
	defer em.Close()

	home := t.TempDir()
	environ := append(os.Environ(), "MODEL_API=openai", "MODEL_URL="+tm.URL, "MODEL_NAME=oracle", "MODEL_OPTIONS=",
		"EVOLVE_MODEL_API=anthropic", "EVOLVE_MODEL_URL="+em.URL, "EVOLVE_MODEL_NAME=scripted-evolver", "ANCHOR_JOBS=2",
		// Round 1 must reach holdout: the staged screen's futility draw is
		// seeded by the harness hashes, so with it a train-only gain of two
		// tasks out of four stops on train or not as the baseline's hash falls.
		"ANCHOR_SCREEN=off")
	var out bytes.Buffer
	c := Config{Anchor: filepath.Join(bin, "anchor"), Home: home, Tasks: suite, Harness: harness, TaskEnv: environ,
		EvolveEnv: evolveEnv(environ), RoundBudget: 50000, DailyBudget: 1 << 40, TestCommand: "go vet ./core ./tools ./middleware ./memory", Out: &out}
	ctx := context.Background()
	if _, err := c.anchor(ctx, c.TaskEnv, "init", "--harness", harness); err != nil {
		t.Fatal(err)
	}
	memory, _ := os.ReadFile(filepath.Join(harness, "memory", "memory.go"))

	rounds := []struct {
		plan     map[string]string
		hyp      string
		decision string
		reason   string
	}{
		{map[string]string{"harness/system_prompt.md": trainOnly}, "Naming things plainly helps the agent read code.", "reject", "holdout"},
		{map[string]string{"harness/system_prompt.md": baseline + "When the task is double-a, read m.go first.\n"}, "A hint for one task.", "reject", `task-specific string in the diff: "double-a"`},
		{map[string]string{"harness/system_prompt.md": baseline + "Plan first.\n", "harness/memory/memory.go": string(memory) + "\n// notes\n"}, "Two files at once.", "refused", "changed 2 files"},
		{map[string]string{"harness/system_prompt.md": baseline + phrase + "\n"}, "Reading the failing test first makes the agent fix the right code.", "accept", ""},
	}
	goals := "# operator goals, one per round\nMake the agent read before it writes.\nKeep prompts short.\n"
	if err := os.WriteFile(filepath.Join(home, "goals.txt"), []byte(goals), 0o644); err != nil {
		t.Fatal(err)
	}
	var workspaces []string
	for i, want := range rounds {
		ev.mu.Lock()
		ev.plan, ev.hyp = want.plan, want.hyp
		ev.mu.Unlock()
		r := c.Round(ctx)
		if err := c.record(r); err != nil {
			t.Fatal(err)
		}
		if r.Decision != want.decision || !strings.Contains(r.Reason, want.reason) {
			t.Fatalf("round %d: %s (%s), want %s (%s)", i+1, r.Decision, r.Reason, want.decision, want.reason)
		}
		if r.Hypothesis != want.hyp || len(r.TraceIDs) != len(train) || r.Tokens == 0 {
			t.Errorf("round %d record = %+v", i+1, r)
		}
		// Keep what the evolver saw in this round.
		ws := filepath.Join(t.TempDir(), "workspace")
		files, err := anchor.ReadTree(filepath.Join(home, "evolve", "task", "repo"), false)
		if err != nil {
			t.Fatal(err)
		}
		if err := anchor.WriteTree(ws, files); err != nil {
			t.Fatal(err)
		}
		workspaces = append(workspaces, ws)
		if i == 0 {
			checkGoalTaken(t, r, home, em, "Make the agent read before it writes.", "Keep prompts short.")
		}
	}
	if b, _ := os.ReadFile(filepath.Join(harness, "system_prompt.md")); !strings.Contains(string(b), phrase) {
		t.Errorf("after the accepted round the harness working copy was not refreshed")
	}

	// Round 2's workspace: round 1's rejected candidate is in history/, with
	// its diff, hypothesis and reason; holdout only as the decision.
	fixedN, brokenN := 0, 0
	for _, id := range train {
		before, after := oracle.Solves(baseline, id), oracle.Solves(trainOnly, id)
		if after && !before {
			fixedN++
		}
		if before && !after {
			brokenN++
		}
	}
	gen1 := readAll(t, filepath.Join(workspaces[1], "history", "gen-001"))
	for _, want := range []string{"Naming things plainly helps the agent read code.", "decision: rejected", "reason: holdout did not improve",
		"+Also note", "system_prompt.md", fmt.Sprintf("fixed (%d):", fixedN), fmt.Sprintf("broken (%d):", brokenN),
		"operator's goal: Make the agent read before it writes."} {
		if !strings.Contains(gen1, want) {
			t.Errorf("round 2's history/gen-001 lacks %q:\n%s", want, gen1)
		}
	}
	row := fmt.Sprintf("| 1 | rejected | system_prompt.md | %d | %d |", fixedN, brokenN)
	if h := readAll(t, filepath.Join(workspaces[1], "history", "README.md")); !strings.Contains(h, row) {
		t.Errorf("round 2's history table:\n%s", h)
	}
	if h := readAll(t, filepath.Join(workspaces[3], "history", "README.md")); !strings.Contains(h, "Rounds refused before the judge") || !strings.Contains(h, "Two files at once.") {
		t.Errorf("round 4's history lacks the refused round:\n%s", h)
	}

	// Traces: every train run of the head, failed and passed, complete.
	checkTraces(t, workspaces[1], home, c, train)

	// A dry run with a goal, through the ratchet command: it writes the next
	// round's task, prints its path, and takes nothing from the queue.
	if err := os.WriteFile(filepath.Join(home, "goals.txt"), []byte("A queued goal.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dry := exec.Command(filepath.Join(bin, "ratchet"), "evolve", "--dry-run", "--goal", "Shorter replies, please.", "--harness", harness)
	dry.Env = append(environ, "ANCHOR_HOME="+home, "ANCHOR_TASKS="+suite, "PATH="+bin+":"+os.Getenv("PATH"))
	dryOut, err := dry.Output()
	if err != nil {
		t.Fatalf("ratchet evolve --dry-run: %v\n%s", err, dryOut)
	}
	dryDir := strings.TrimSpace(string(dryOut))
	prompt, _ := os.ReadFile(filepath.Join(dryDir, "task.toml"))
	readme, _ := os.ReadFile(filepath.Join(dryDir, "repo", "README.md"))
	if !strings.Contains(string(prompt), "The operator's goal for this round: Shorter replies, please.") || !strings.Contains(string(readme), "Shorter replies, please.") {
		t.Errorf("dry run at %q: the goal is not in the prompt or README:\n%s", dryDir, prompt)
	}
	if b, _ := os.ReadFile(filepath.Join(home, "goals.txt")); !strings.Contains(string(b), "A queued goal.") {
		t.Errorf("the dry run took a goal from the queue: %q", b)
	}
	if h := readAll(t, filepath.Join(dryDir, "repo", "history")); !strings.Contains(h, "# Generation 3: accepted") || !strings.Contains(h, "and holdout improved") {
		t.Errorf("the dry run's history lacks the accepted generation:\n%s", h)
	}
	workspaces = append(workspaces, filepath.Join(dryDir, "repo"))

	// Nothing of holdout but the decision, anywhere in any workspace.
	checkNoHoldout(t, home, workspaces, holdout)

	// The ledger records which goal the candidate answered.
	rows, err := ledgerdb.Query(ctx, filepath.Join(home, "ledger.db"), `SELECT gen, goal FROM generations ORDER BY gen`)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || rows[1]["goal"] != "Make the agent read before it writes." || rows[2]["goal"] != "Keep prompts short." || rows[3]["goal"] != "" {
		t.Errorf("ledger goals = %v", rows)
	}

	// After the accept every train task passes: nothing left to learn.
	out.Reset()
	if err := c.Run(ctx, 1, false); err != nil || !strings.Contains(out.String(), "round: nothing") {
		t.Errorf("a round after the accept: %v %q", err, out.String())
	}
	// STOP halts before the next round; nothing is recorded.
	before, _ := History(home)
	os.WriteFile(filepath.Join(home, "STOP"), nil, 0o644)
	out.Reset()
	if err := c.Run(ctx, 3, false); err != nil || !strings.Contains(out.String(), "STOP exists") {
		t.Errorf("STOP: %v %q", err, out.String())
	}
	if h, _ := History(home); len(h) != len(before) {
		t.Errorf("a round ran despite STOP")
	}
	var table bytes.Buffer
	if err := PrintHistory(home, &table); err != nil || !strings.Contains(table.String(), "refused") || !strings.Contains(table.String(), "A hint for one task.") {
		t.Errorf("history table:\n%s", table.String())
	}
}

// checkGoalTaken checks that round 1 took the first queued goal, put it in
// front of the evolver, and left the rest of the queue.
func checkGoalTaken(t *testing.T, r Round, home string, em *fakemodel.Server, goal, rest string) {
	t.Helper()
	if r.Goal != goal {
		t.Errorf("round 1 goal = %q, want %q", r.Goal, goal)
	}
	b, _ := os.ReadFile(filepath.Join(home, "goals.txt"))
	if strings.Contains(string(b), goal) || !strings.Contains(string(b), rest) {
		t.Errorf("goals.txt after round 1 = %q", b)
	}
	reqs := em.Requests()
	if len(reqs) == 0 || !strings.Contains(string(reqs[0].Body), "The operator's goal for this round: "+goal) {
		t.Errorf("the evolver was not shown the goal")
	}
	seen := false
	for _, req := range reqs {
		seen = seen || strings.Contains(string(req.Body), "Every earlier candidate of this ledger")
	}
	if !seen {
		t.Errorf("the evolver's read of history/README.md never reached it")
	}
}

// checkTraces checks traces/ in a workspace against the ledger: every head
// train run is there, failed and passed; the largest tool result of a failed
// run reads back whole through the harness's own read_file and middleware.
func checkTraces(t *testing.T, ws, home string, c Config, train []string) {
	t.Helper()
	index := readAll(t, filepath.Join(ws, "traces", "README.md"))
	var runs []anchor.Run
	dirs, _ := os.ReadDir(filepath.Join(ws, "traces"))
	for _, d := range dirs {
		if d.IsDir() {
			rows, err := ledgerdb.Scan[ledgerdb.Run](context.Background(), filepath.Join(home, "ledger.db"), `SELECT id, task_id, score, trace_path FROM runs WHERE id = ?`, d.Name())
			if err != nil || len(rows) != 1 {
				t.Fatalf("traces/%s is no run of the ledger: %v", d.Name(), err)
			}
			runs = append(runs, anchor.Run{ID: d.Name(), TaskID: rows[0].TaskID, Score: *rows[0].Score, TracePath: rows[0].TracePath})
		}
	}
	passed, failed := 0, 0
	for _, r := range runs {
		if r.Score == 1 {
			passed++
		} else {
			failed++
		}
		if !strings.Contains(index, r.TaskID) || !strings.Contains(index, r.ID+"/index.md") {
			t.Errorf("traces/README.md lacks run %s of %s:\n%s", r.ID, r.TaskID, index)
		}
	}
	if len(runs) != len(train) || passed == 0 || failed == 0 {
		t.Fatalf("traces/ holds %d runs, %d passed and %d failed; want all %d train tasks, both kinds", len(runs), passed, failed, len(train))
	}

	// The largest tool result of a failed run.
	var big string
	var bigRun anchor.Run
	for _, r := range runs {
		raw, err := os.ReadFile(r.TracePath)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(raw), "\n") {
			var ev struct{ Type, Result string }
			if json.Unmarshal([]byte(line), &ev) == nil && ev.Type == "tool_result" && r.Score < 1 && len(ev.Result) > len(big) {
				big, bigRun = ev.Result, r
			}
		}
	}
	if len(big) < 20000 {
		t.Fatalf("the largest tool result of a failed run has %d characters; the test needs one over 20000", len(big))
	}
	read, trunc := tools.ReadFile(), agent.Middleware()
	var joined strings.Builder
	files, _ := filepath.Glob(filepath.Join(ws, "traces", bigRun.ID, "step-*"))
	sortParts(files)
	for _, f := range files {
		rel, _ := filepath.Rel(ws, f)
		shown := read.Run(map[string]any{"path": rel}, &core.Context{Root: ws, Name: "read_file"})
		full := shown
		for _, m := range trunc {
			if h, ok := m.(core.AfterTool); ok {
				shown = h.AfterTool(core.NewState(0, 0, core.Usage{}, nil), core.ToolCall{Name: "read_file"}, shown)
			}
		}
		if shown != full {
			t.Fatalf("read_file %s: the agent would see it truncated (%d characters)", rel, len(full))
		}
		if strings.Contains(filepath.Base(f), ".part") {
			_, full, _ = strings.Cut(full, "\n") // the part's own header line
		}
		joined.WriteString(full)
	}
	if !strings.Contains(joined.String(), big) {
		t.Errorf("the %d-character result of run %s is not readable whole from traces/%s", len(big), bigRun.ID, bigRun.ID)
	}
	if idx := readAll(t, filepath.Join(ws, "traces", bigRun.ID)); !strings.Contains(idx, fmt.Sprintf("| %d |", len(big))) {
		t.Errorf("the run's index does not give the result's size %d", len(big))
	}
}

var partNo = regexp.MustCompile(`^(.*)\.part(\d+)(\.\w+)$`)

// sortParts orders step files by step and part number.
func sortParts(files []string) {
	key := func(f string) string {
		if m := partNo.FindStringSubmatch(f); m != nil {
			return fmt.Sprintf("%s%s.%06s", m[1], m[3], m[2])
		}
		return f
	}
	slices.SortFunc(files, func(a, b string) int { return strings.Compare(key(a), key(b)) })
}

// checkNoHoldout scans every file of every workspace for holdout task ids,
// holdout run ids, the anchor's holdout reasons, and numbers next to the
// word holdout or a p-value.
func checkNoHoldout(t *testing.T, home string, workspaces []string, holdout []string) {
	t.Helper()
	ledger := filepath.Join(home, "ledger.db")
	forbidden := slices.Clone(holdout)
	rows, _ := ledgerdb.Query(context.Background(), ledger, `SELECT id FROM runs WHERE split = 'holdout'`)
	for _, r := range rows {
		forbidden = append(forbidden, str(r["id"]))
	}
	rows, _ = ledgerdb.Query(context.Background(), ledger, `SELECT reason FROM generations WHERE reason LIKE '%holdout%'`)
	for _, r := range rows {
		forbidden = append(forbidden, str(r["reason"]))
	}
	if len(rows) < 2 {
		t.Fatalf("the ledger has %d reasons naming holdout; the test needs the rejection and the accept", len(rows))
	}
	numbers := regexp.MustCompile(`(?i)holdout[^\n]{0,24}\d`)
	pValue := regexp.MustCompile(`\bp\s*[=<>]\s*0?\.\d`)
	for _, ws := range workspaces {
		files, err := anchor.ReadTree(ws, false)
		if err != nil || len(files) == 0 {
			t.Fatalf("read workspace %s: %v", ws, err)
		}
		for name, body := range files {
			for _, f := range forbidden {
				if bytes.Contains(body, []byte(f)) {
					t.Errorf("%s/%s holds %q, a holdout secret", ws, name, f)
				}
			}
			if m := numbers.Find(body); m != nil {
				t.Errorf("%s/%s holds %q, a holdout number", ws, name, m)
			}
			if m := pValue.Find(body); m != nil && !strings.HasPrefix(name, "harness/") {
				t.Errorf("%s/%s holds %q, a p-value", ws, name, m)
			}
		}
	}
}

// readAll returns a file, or every file under a folder, as one text.
func readAll(t *testing.T, path string) string {
	t.Helper()
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		b, _ := os.ReadFile(path)
		return string(b)
	}
	files, err := anchor.ReadTree(path, false)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(files)) {
		b.Write(files[name])
	}
	return b.String()
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

// TestEvolveJudgesARaisedStepCap: a candidate that raises the step cap in
// middleware/token_budget.go is an honest edit, and the harness's own
// tests (run as the evolve task's test, the default command) no longer
// pin the baseline's value: the candidate reaches the anchor, which judges
// it on the suite, accepted or rejected, never refused by the evolver.
func TestEvolveJudgesARaisedStepCap(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the anchor, sandboxes and the harness's own tests")
	}
	bin := binDir(t)
	suite := filepath.Join(t.TempDir(), "suite")
	for _, id := range []string{"double-a", "double-b"} {
		addTask(t, suite, "train", id, false)
	}
	for _, id := range []string{"double-h1", "double-h2"} {
		addTask(t, suite, "holdout", id, false)
	}
	harness := filepath.Join(t.TempDir(), "harness")
	if err := copyDir(filepath.Join(repoRoot(), "harness"), harness); err != nil {
		t.Fatal(err)
	}
	budget, err := os.ReadFile(filepath.Join(harness, "middleware", "token_budget.go"))
	if err != nil {
		t.Fatal(err)
	}
	raised := regexp.MustCompile(`maxSteps\s*=\s*\d+`).ReplaceAllString(string(budget), "maxSteps = 30")
	if raised == string(budget) {
		t.Fatal("token_budget.go sets no maxSteps to raise")
	}
	tm, err := scripted.StartOracle(scripted.Oracle{Suite: suite, Phrase: "never said", Rate: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	defer tm.Close()
	ev := &evolver{plan: map[string]string{"harness/middleware/token_budget.go": raised}, hyp: "More steps let the agent finish."}
	em, err := fakemodel.Start(repeat(fakemodel.Step{Func: ev.step}, 1000)...)
	if err != nil {
		t.Fatal(err)
	}
	defer em.Close()
	environ := append(os.Environ(), "MODEL_API=openai", "MODEL_URL="+tm.URL, "MODEL_NAME=oracle", "MODEL_OPTIONS=",
		"EVOLVE_MODEL_API=anthropic", "EVOLVE_MODEL_URL="+em.URL, "EVOLVE_MODEL_NAME=scripted-evolver", "ANCHOR_JOBS=2")
	var out bytes.Buffer
	c := Config{Anchor: filepath.Join(bin, "anchor"), Home: t.TempDir(), Tasks: suite, Harness: harness, TaskEnv: environ,
		EvolveEnv: evolveEnv(environ), RoundBudget: 50000, DailyBudget: 1 << 40,
		TestCommand: DefaultTest, Out: &out}
	ctx := context.Background()
	if _, err := c.anchor(ctx, c.TaskEnv, "init", "--force", "--harness", harness); err != nil {
		t.Fatal(err)
	}
	r := c.Round(ctx)
	if r.Decision != "accept" && r.Decision != "reject" || r.Component != "middleware/token_budget.go" {
		t.Fatalf("the raised step cap was %s (%s), component %q; want it judged by the anchor\n%s",
			r.Decision, r.Reason, r.Component, out.String())
	}
}

// TestEveryEditableFileMayChange sets each of the nine editable files to
// another honest value at once (30 steps, 120k tokens, a cut at 20,000
// characters, 2 retries, a longer run_tests tail, a longer listing, other
// tool descriptions, another prompt, a memory that recalls something): the
// harness still passes the evolve task's test (it builds, vets and passes
// its own tests), and the anchor scores it on a task.
func TestEveryEditableFileMayChange(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and tests a harness, runs the anchor and a sandbox")
	}
	harness := filepath.Join(t.TempDir(), "harness")
	if err := copyDir(filepath.Join(repoRoot(), "harness"), harness); err != nil {
		t.Fatal(err)
	}
	edit := func(file string, pairs ...string) {
		t.Helper()
		path := filepath.Join(harness, file)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		for i := 0; i < len(pairs); i += 2 {
			re := regexp.MustCompile(pairs[i])
			if !re.MatchString(s) {
				t.Fatalf("%s has nothing matching %s to change", file, pairs[i])
			}
			s = re.ReplaceAllString(s, pairs[i+1])
		}
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit("system_prompt.md", `(?s)^.*$`, "You fix the failing tests of a repository. Read the failing test first, "+
		"then the code it calls; change the code, never the tests; run the tests after each change; stop when they pass.\n")
	edit("tools/read_file.go", `"Read a text file of the task\.`, `"Read one text file of the task.`)
	edit("tools/write_file.go", `"Write the complete new content of a file`, `"Write the whole new content of one file`)
	edit("tools/run_tests.go", `testTail\s*=\s*\d+`, "testTail = 9000")
	edit("tools/list_dir.go", `listLimit\s*=\s*\d+`, "listLimit = 1000")
	edit("middleware/retry.go", `retryAttempts\s*=\s*\d+`, "retryAttempts = 2")
	edit("middleware/truncation.go", `truncateOver\s*=\s*\d+`, "truncateOver = 20000", `keepHead\s*=\s*\d+`, "keepHead = 12000",
		`keepTail\s*=\s*\d+`, "keepTail = 7000")
	edit("middleware/token_budget.go", `maxSteps\s*=\s*\d+`, "maxSteps = 30", `maxTokens\s*=\s*\d+`, "maxTokens = 120000")
	edit("memory/memory.go", `func \(stub\) Recall\(string\) string \{ return "" \}`,
		`func (stub) Recall(string) string { return "Run the tests before and after each change." }`)

	test := exec.Command("sh", "-c", DefaultTest)
	test.Dir = harness
	if out, err := test.CombinedOutput(); err != nil {
		t.Fatalf("the harness with nine other values fails the evolve task's test (%s): %v\n%s", DefaultTest, err, out)
	}

	bin := binDir(t)
	suite := filepath.Join(t.TempDir(), "suite")
	addTask(t, suite, "train", "double-a", false)
	tm, err := scripted.StartOracle(scripted.Oracle{Suite: suite, Phrase: "Read the failing test first", Rate: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer tm.Close()
	environ := append(os.Environ(), "MODEL_API=openai", "MODEL_URL="+tm.URL, "MODEL_NAME=oracle", "MODEL_OPTIONS=")
	c := Config{Anchor: filepath.Join(bin, "anchor"), Home: t.TempDir(), Tasks: suite, Harness: harness, TaskEnv: environ}
	out, err := c.anchor(context.Background(), environ, "run", "--harness", harness, "--task", filepath.Join(suite, "train", "double-a"))
	if err != nil {
		t.Fatalf("anchor run: %v\n%s", err, out)
	}
	var r anchor.Run
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("anchor run printed %s: %v", out, err)
	}
	// The oracle solves a task when the prompt holds its phrase: the
	// anchor scored the edited harness, whose prompt does.
	if r.Score != 1 || r.Error != "" {
		t.Errorf("the anchor scored the nine-value harness %v (%q); want 1", r.Score, r.Error)
	}
}
