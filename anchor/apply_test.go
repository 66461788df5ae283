package anchor

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

func TestCheckDiff(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	h := harnessDir(t)
	hash, _ := e.a.Snapshot(h)
	files, _ := e.a.readSnapshot(hash)
	editable := manifest(files)
	prompt := readHarness(t, h, "system_prompt.md")
	readFile := readHarness(t, h, "tools/read_file.go")
	tests := []struct {
		name, component, diff, want string
	}{
		{"one editable file", "system_prompt.md", makeDiff(t, h, map[string]string{"system_prompt.md": prompt + "Be brief.\n"}), ""},
		{"empty diff", "system_prompt.md", "", "empty or not a diff"},
		{"component not in manifest", "main.go", makeDiff(t, h, map[string]string{"main.go": readHarness(t, h, "main.go") + "// x\n"}), "not listed in manifest"},
		{"file outside the manifest", "system_prompt.md", makeDiff(t, h, map[string]string{"main.go": readHarness(t, h, "main.go") + "// x\n"}), "must touch exactly system_prompt.md; it touches main.go"},
		{"two files", "system_prompt.md", makeDiff(t, h, map[string]string{"system_prompt.md": prompt + "x\n", "memory/memory.go": readHarness(t, h, "memory/memory.go") + "// x\n"}), "it touches memory/memory.go, system_prompt.md"},
		{"new file", "tools/new.go", makeDiff(t, h, map[string]string{"tools/new.go": "package tools\n"}), "create mode"},
		{"deleted file", "system_prompt.md", makeDiff(t, h, map[string]string{"system_prompt.md": "\x00delete"}), "delete mode"},
		{"binary", "system_prompt.md", makeDiff(t, h, map[string]string{"system_prompt.md": "\x00\x01\x02binary\x00"}), "binary"},
		{"mode change", "system_prompt.md", "diff --git a/system_prompt.md b/system_prompt.md\nold mode 100644\nnew mode 100755\n", "mode change"},
		{"symlink", "system_prompt.md", "diff --git a/system_prompt.md b/system_prompt.md\nnew file mode 120000\n--- /dev/null\n+++ b/system_prompt.md\n@@ -0,0 +1 @@\n+/etc/passwd\n", "create mode 120000"},
		{"rename", "system_prompt.md", "diff --git a/system_prompt.md b/prompt.md\nsimilarity index 100%\nrename from system_prompt.md\nrename to prompt.md\n", "rename system_prompt.md => prompt.md"},
		{"dot dot", "system_prompt.md", "--- a/../system_prompt.md\n+++ b/../system_prompt.md\n@@ -1 +1 @@\n-a\n+b\n", "outside the harness"},
		{"absolute", "system_prompt.md", "--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-a\n+b\n", "it touches etc/passwd"},
		{"no file", "system_prompt.md", "hello\n", "not a diff git can read"},
		{"whole-file rewrite", "tools/read_file.go", makeDiff(t, h, map[string]string{"tools/read_file.go": "package tools\n"}), "whole-file rewrite"},
		{"large edit that keeps most lines", "tools/read_file.go", makeDiff(t, h, map[string]string{"tools/read_file.go": strings.Replace(readFile, "Read a text file", "Read a whole text file", 1)}), ""},
	}
	for _, tt := range tests {
		got := checkDiff([]byte(tt.diff), tt.component, editable, files)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: checkDiff = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestLeakDetector(t *testing.T) {
	e := newEnv(t)
	dir := addTask(t, e.suite, "train", "sum-leaky-task")
	writeFiles(t, dir, map[string]string{"task.toml": "prompt = \"\"\"\nThe report must say \"totals balanced\" at the end.\n\"\"\"\ntest = \"go test ./...\"\n"})
	addTask(t, e.suite, "holdout", "holdout-only-task")
	hash, _ := e.a.Snapshot(harnessDir(t))
	files, _ := e.a.readSnapshot(hash)
	tests := []struct{ line, want string }{
		{"When the task is sum-leaky-task, edit sum.go.", "sum-leaky-task"},
		{"import example.com/sum-leaky-task", "sum-leaky-task"},
		{`Always print "totals balanced".`, "totals balanced"},
		{"if the test says empty then", ""},
		{"holdout-only-task is not train", ""},
		{`Use "write_file" with the "complete file content".`, ""}, // harness vocabulary
	}
	for _, tt := range tests {
		diff := "--- a/system_prompt.md\n+++ b/system_prompt.md\n@@ -1 +1,2 @@\n x\n+" + tt.line + "\n"
		got := e.a.leak(diff, files)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("leak(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
	// Quoted strings from public tests count as well.
	writeFiles(t, dir, map[string]string{"repo/sum_test.go": "package sum\n// want \"grand total: 6\"\n"})
	if got := e.a.leak("+++ b/system_prompt.md\n+print grand total: 6\n", files); got == "" {
		t.Error("a string from a public test was not caught")
	}
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
	// anchor traces reads the ledger's own model: without the MODEL_*
	// settings it still lists the head's train runs.
	e.a.API, e.a.ModelName, e.a.Options = "openai", "", ""
	if runs, err := e.a.traces(headHash, false); err != nil || len(runs) == 0 {
		t.Errorf("traces without the model settings: %d runs, %v", len(runs), err)
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
