package anchor

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"ratchet/harness/fakemodel"
)

// makeDiff returns a git diff that changes path in the harness at dir.
func makeDiff(t testing.TB, dir string, edits map[string]string) string {
	t.Helper()
	work := filepath.Join(t.TempDir(), "h")
	if err := copyTree(dir, work); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
		cmd.Dir = work
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "base")
	for p, body := range edits {
		if body == "\x00delete" {
			os.Remove(filepath.Join(work, p))
			continue
		}
		writeFiles(t, work, map[string]string{p: body})
	}
	git("add", "-A")
	return git("diff", "--cached", "--binary")
}

func readHarness(t testing.TB, dir, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, p))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// suiteModel fixes the task when the system prompt says CAREFUL; for t-b it
// also needs THOROUGH. Train: t-a, t-b; holdout: h-a.
func suiteModel() fakemodel.Step {
	return fakemodel.Step{Func: func(r fakemodel.Request) fakemodel.Step {
		body := string(r.Body)
		need := strings.Contains(body, "CAREFUL") && (!strings.Contains(body, "wrong for t-b") || strings.Contains(body, "THOROUGH"))
		if !need {
			return fakemodel.Step{Text: "I give up.", In: 50, Out: 5}
		}
		return fixer("").Func(r)
	}}
}

func suiteEnv(t *testing.T) (*testEnv, string) {
	t.Helper()
	e := newEnv(t, repeat(suiteModel(), 1000)...)
	addTask(t, e.suite, "train", "t-a")
	addTask(t, e.suite, "train", "t-b")
	addTask(t, e.suite, "holdout", "h-a")
	addTask(t, e.suite, "sealed", "s-a")
	dir := copyHarness(t)
	// One holdout task can never beat noise at 0.05 (one fix has p = 0.5):
	// these tests are about the rule on the means, so their gate is wide open.
	// TestGate* below use enough tasks for the real alpha.
	e.a.Alpha = 0.5
	if err := e.a.Init(ctx(), dir); err != nil {
		t.Fatal(err)
	}
	return e, dir
}

func (e *testEnv) candidate(t *testing.T, component, diff string) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"c.diff": diff})
	b, _ := json.Marshal(map[string]any{"diff": "c.diff", "component": component, "hypothesis": "test", "trace_ids": []string{"r1"}})
	writeFiles(t, dir, map[string]string{"c.json": string(b)})
	return filepath.Join(dir, "c.json")
}

func (e *testEnv) last(t *testing.T) Gen {
	t.Helper()
	gs, err := e.a.gens("")
	if err != nil || len(gs) == 0 {
		t.Fatal(err)
	}
	return gs[len(gs)-1]
}

func TestApplyRule(t *testing.T) {
	slow(t)
	t.Parallel()
	e, dir := suiteEnv(t)
	base := e.last(t)
	if base.Decision != "baseline" || *base.TrainPost != 0.5 || *base.HoldoutPost != 0.5 || !base.Head {
		t.Fatalf("baseline = %+v", base)
	}
	prompt := readHarness(t, dir, "system_prompt.md")
	headHash := base.Hash
	apply := func(component, diff string) Gen {
		t.Helper()
		if err := e.a.Apply(ctx(), e.candidate(t, component, diff)); err != nil {
			t.Fatal(err)
		}
		return e.last(t)
	}
	unchanged := func(name string) {
		t.Helper()
		h, err := e.a.head()
		if err != nil || h.Hash != headHash {
			t.Errorf("%s: the head moved", name)
		}
		if got, _ := e.a.Snapshot(dir); got != headHash {
			t.Errorf("%s: the harness working copy changed", name)
		}
	}

	g := apply("system_prompt.md", makeDiff(t, dir, map[string]string{"system_prompt.md": prompt + "Check sum in t-a first.\n"}))
	if g.Decision != "reject" || !strings.Contains(g.Reason, `task-specific string in the diff: "t-a"`) && !strings.Contains(g.Reason, "sum") || g.TrainPost != nil {
		t.Errorf("leak: %+v", g)
	}
	unchanged("leak")

	g = apply("system_prompt.md", makeDiff(t, dir, map[string]string{"system_prompt.md": prompt + "Be brief.\n"}))
	if g.Decision != "reject" || !strings.Contains(g.Reason, "train 0.500 -> 0.500: 0 fixed, 0 broken (did not improve; a tie rejects)") || g.HoldoutPost != nil {
		t.Errorf("tie on train: %+v", g)
	}
	unchanged("tie")

	l := strings.SplitN(prompt, "\n", 4)
	g = apply("system_prompt.md", "--- a/system_prompt.md\n+++ b/system_prompt.md\n@@ -1,3 +1,3 @@\n-"+l[0]+"\n+"+l[0]+"\n "+l[1]+"\n "+l[2]+"\n")
	if g.Decision != "reject" || !strings.Contains(g.Reason, "no-op") {
		t.Errorf("no-op: %+v", g)
	}
	g = apply("system_prompt.md", "--- a/system_prompt.md\n+++ b/system_prompt.md\n@@ -1 +1 @@\n-no such line\n+x\n")
	if g.Decision != "reject" || !strings.Contains(g.Reason, "does not apply") {
		t.Errorf("bad hunk: %+v", g)
	}
	unchanged("no-op")

	g = apply("system_prompt.md", makeDiff(t, dir, map[string]string{"system_prompt.md": prompt + "Be CAREFUL.\n"}))
	if g.Decision != "accept" || *g.TrainPre != 0.5 || *g.TrainPost != 0.75 || *g.HoldoutPost != 1 || !g.Head || g.Tokens == 0 {
		t.Fatalf("improvement: %+v", g)
	}
	if !strings.Contains(readHarness(t, dir, "system_prompt.md"), "CAREFUL") {
		t.Error("harness/ was not refreshed after accept")
	}
	headHash = g.Hash
	prompt = readHarness(t, dir, "system_prompt.md")

	g = apply("system_prompt.md", makeDiff(t, dir, map[string]string{"system_prompt.md": prompt + "Be THOROUGH.\n"}))
	if g.Decision != "reject" || *g.TrainPost != 1 || !strings.Contains(g.Reason, "holdout 1.000 -> 1.000: 0 fixed, 0 broken (did not improve; a tie rejects)") {
		t.Errorf("holdout tie: %+v", g)
	}
	unchanged("holdout tie")

	n := len(must(e.a.gens("")))
	abs := e.candidate(t, "system_prompt.md", makeDiff(t, dir, map[string]string{"system_prompt.md": prompt + "Be brief.\n"}))
	b, _ := os.ReadFile(abs)
	os.WriteFile(abs, []byte(strings.Replace(string(b), `"c.diff"`, `"`+filepath.Join(filepath.Dir(abs), "c.diff")+`"`, 1)), 0o644)
	// An absolute diff path could copy any host file into diffs/: refused.
	if err := e.a.Apply(ctx(), abs); err == nil || !strings.Contains(err.Error(), "inside the candidate's folder") {
		t.Errorf("a candidate with an absolute diff path: %v", err)
	}
	outside := e.candidate(t, "system_prompt.md", "x")
	os.Symlink("/etc/passwd", filepath.Join(filepath.Dir(outside), "c.diff.link"))
	b, _ = os.ReadFile(outside)
	os.WriteFile(outside, []byte(strings.Replace(string(b), `"c.diff"`, `"c.diff.link"`, 1)), 0o644)
	if err := e.a.Apply(ctx(), outside); err == nil {
		t.Errorf("a diff that is a link out of the folder was read")
	}
	// A rejection ends the command with exit status 1; a candidate whose diff
	// is not a diff is an input error (2), refused before any generation.
	leak := e.candidate(t, "system_prompt.md", makeDiff(t, dir, map[string]string{"system_prompt.md": prompt + "Check sum in t-a first.\n"}))
	var st status
	if err := e.a.dispatch(ctx(), "apply", &options{candidate: leak}); err == nil || errors.As(err, &st) {
		t.Errorf("anchor apply of a rejected candidate: %v, want an error of exit status 1", err)
	}
	n = len(must(e.a.gens("")))
	words := e.candidate(t, "system_prompt.md", "Please be more careful with sums.\n")
	if err := e.a.Apply(ctx(), words); !errors.As(err, &st) || st.code != 2 || !strings.Contains(err.Error(), "is not a unified diff") {
		t.Errorf("a candidate that is not a diff: %v", err)
	}
	for _, bad := range []string{writeTemp(t, `{"diff":"c.diff"}`), filepath.Join(t.TempDir(), "missing.json"), writeTemp(t, "{not json"), writeTemp(t, `{"diff":"nope.diff","component":"system_prompt.md"}`), writeTemp(t, `{"component":"x"}`)} {
		if err := e.a.Apply(ctx(), bad); err == nil || !strings.Contains(err.Error(), "nothing was recorded") {
			t.Errorf("bad candidate %s: %v", bad, err)
		}
	}
	if m := len(must(e.a.gens(""))); m != n {
		t.Errorf("bad candidates wrote %d generation rows", m-n)
	}
	unchanged("bad candidates")
	for _, g := range must(e.a.gens("")) {
		if g.Decision == "pending" {
			t.Errorf("generation %d left pending", g.Gen)
		}
	}
	// Sealed is never part of apply.
	var sealed int
	e.a.db.QueryRow(`SELECT COUNT(*) FROM runs WHERE split = 'sealed'`).Scan(&sealed)
	if sealed != 0 {
		t.Errorf("apply ran %d sealed tasks", sealed)
	}
}

func writeTemp(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "c.json")
	os.WriteFile(p, []byte(body), 0o644)
	return p
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A change the model never sees (a comment in a tool's code) sends the
// model only what the incumbent sent: it is rejected as not activated after
// its first train batch, at zero upstream requests.
func TestNeverSeesRejectedAtZeroRequests(t *testing.T) {
	slow(t)
	t.Parallel()
	g, upstream := applyToolEdit(t, "\n// A note the model never reads.\n")
	t.Logf("%s after %s: %d runs, %d requests: %s", g.Decision, g.Stopped, g.Runs, g.Requests, g.Reason)
	if g.Decision != "reject" || !strings.Contains(g.Reason, "not activated") || g.Requests != 0 || upstream != 0 {
		t.Errorf("decision %s, %d requests (%d upstream): %s", g.Decision, g.Requests, upstream, g.Reason)
	}
	if g.Runs == 0 || g.Runs >= 6 {
		t.Errorf("%d agent runs; want the first train batch", g.Runs)
	}
}

// With the screen off the candidate runs on every task, as before: the
// same change costs every run and the upstream every request.
func TestScreenOffEvaluatesInFull(t *testing.T) {
	slow(t)
	t.Parallel()
	e := newEnv(t, repeat(coinModel("never"), 1<<16)...)
	e.a.Screen = "off"
	for i := range 6 {
		addExitTask(t, e.suite, "train", fmt.Sprintf("gate-t%02d", i))
	}
	for i := range 12 {
		addExitTask(t, e.suite, "holdout", fmt.Sprintf("gate-h%02d", i))
	}
	dir := copyHarness(t)
	if err := e.a.Init(ctx(), dir); err != nil {
		t.Fatal(err)
	}
	n0 := len(e.srv.Requests())
	tool := readHarness(t, dir, "tools/list_dir.go")
	diff := makeDiff(t, dir, map[string]string{"tools/list_dir.go": tool + "\n// A note the model never reads.\n"})
	if err := e.a.Apply(ctx(), e.candidate(t, "tools/list_dir.go", diff)); err != nil {
		t.Fatal(err)
	}
	g := e.last(t)
	if g.Decision != "reject" || g.Runs != 6 || g.Requests == 0 || len(e.srv.Requests()) == n0 {
		t.Errorf("%s after %s: %d runs, %d requests: %s", g.Decision, g.Stopped, g.Runs, g.Requests, g.Reason)
	}
	if v, _ := e.a.meta("screen"); v != "off" {
		t.Errorf("the ledger froze screen %q", v)
	}
}

// A candidate that does not build is rejected at the validity step, before
// any task runs: no agent run, no model request.
func TestInvalidCandidateRejectedBeforeAnyRun(t *testing.T) {
	slow(t)
	t.Parallel()
	g, upstream := applyToolEdit(t, "\nfunc broken() { return 1 }\n")
	if g.Decision != "reject" || !strings.HasPrefix(g.Reason, "invalid: ") || g.Runs != 0 || g.Requests != 0 ||
		upstream != 0 {
		t.Errorf("%s, %d runs, %d requests (%d upstream): %s", g.Decision, g.Runs, g.Requests, upstream, g.Reason)
	}
}

// applyToolEdit applies, on a fresh gate suite, a candidate that appends
// suffix to tools/list_dir.go, and returns its generation and the requests
// the upstream saw during the apply.
func applyToolEdit(t *testing.T, suffix string) (Gen, int) {
	t.Helper()
	e, dir := gateSuite(t, coinModel("never"), addExitTask)
	n0 := len(e.srv.Requests())
	tool := readHarness(t, dir, "tools/list_dir.go")
	diff := makeDiff(t, dir, map[string]string{"tools/list_dir.go": tool + suffix})
	if err := e.a.Apply(ctx(), e.candidate(t, "tools/list_dir.go", diff)); err != nil {
		t.Fatal(err)
	}
	return e.last(t), len(e.srv.Requests()) - n0
}

// A model server that dies in the middle of an apply is the machine's
// failure, not the candidate's: the generation ends interrupted, and no run
// of the failed attempts is cached.
func TestModelServerDiesMidApply(t *testing.T) {
	slow(t)
	t.Parallel()
	var dead atomic.Bool
	model := coinModel("no phrase helps here")
	live := model.Func
	model.Func = func(r fakemodel.Request) fakemodel.Step {
		if dead.Load() {
			return fakemodel.Step{Status: 503, Body: `{"error":"overloaded"}`}
		}
		return live(r)
	}
	e, dir := gateEnv(t, model)
	dead.Store(true)
	prompt := readHarness(t, dir, "system_prompt.md")
	err := e.a.Apply(ctx(), e.candidate(t, "system_prompt.md", makeDiff(t, dir, map[string]string{"system_prompt.md": prompt + "Be brief.\n"})))
	if err == nil || !strings.Contains(err.Error(), "infrastructure failure") {
		t.Errorf("apply with a dead model server: %v", err)
	}
	g := e.last(t)
	if g.Decision != "interrupted" || !strings.Contains(g.Reason, "step 5") || !strings.Contains(g.Reason, "model server") {
		t.Errorf("generation: %s: %s", g.Decision, g.Reason)
	}
	var cachable, infra int
	e.a.db.QueryRow(`SELECT COUNT(*) FROM runs WHERE harness_hash = ? AND error = ''`, g.Hash).Scan(&cachable)
	e.a.db.QueryRow(`SELECT COUNT(*) FROM runs WHERE harness_hash = ? AND outcome = 'infra'`, g.Hash).Scan(&infra)
	if cachable != 0 || infra == 0 {
		t.Errorf("the candidate's runs: %d cachable (want 0), %d marked infra (want some)", cachable, infra)
	}
}

// anchor init --survey 3 runs the baseline three times on every train and
// holdout task (repeats 0 to 2), and generation 0's scores are still its
// first repeat's, as the gate's K = 1 sees them.
func TestInitSurveyRunsTheBaselineAgain(t *testing.T) {
	slow(t)
	t.Parallel()
	e := newEnv(t, repeat(coinModel("never"), 1<<10)...)
	e.a.Survey = 3
	addExitTask(t, e.suite, "train", "survey-t")
	addExitTask(t, e.suite, "holdout", "survey-h")
	if err := e.a.Init(ctx(), copyHarness(t)); err != nil {
		t.Fatal(err)
	}
	var runs []string
	rows := must(e.a.db.Query(`SELECT task_id || ' ' || "repeat" FROM runs ORDER BY 1`))
	defer rows.Close()
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, s)
	}
	want := []string{"survey-h 0", "survey-h 1", "survey-h 2", "survey-t 0", "survey-t 1", "survey-t 2"}
	if !slices.Equal(runs, want) {
		t.Errorf("runs %v, want %v", runs, want)
	}
	if g := e.last(t); g.Gen != 0 || strings.Count(g.RunIDs, "\n") != 2 {
		t.Errorf("generation %d records runs %q, want the first repeat of each task", g.Gen, g.RunIDs)
	}
	if g := e.last(t); g.Runs != 6 || g.Requests == 0 { // the survey's runs are charged to the baseline
		t.Errorf("generation 0 charged %d runs and %d requests, want the 6 it ran", g.Runs, g.Requests)
	}
}
