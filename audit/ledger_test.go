package audit

import (
	"database/sql"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"ratchet/anchor"
	"ratchet/harness/fakemodel"
	"ratchet/internal/testtree"
)

// A ledger made by the real anchor (anchor.Main, in this process, with its
// sandbox and a scripted model on loopback): the Double suite of two train
// tasks of one group and one holdout task, the repository's harness at
// generation 0, and alpha 0.5, so that one holdout task can decide.
type ledger struct {
	Ledger
	harness string // the harness working copy, which accepts refresh
	srv     *fakemodel.Server
}

// careful is the scripted model of the suite: it fixes a task only when the
// system prompt says CAREFUL, and t-b only when it also says THOROUGH.
func careful(r fakemodel.Request) fakemodel.Step {
	body := string(r.Body)
	switch {
	case strings.Contains(body, "wrote "):
		return fakemodel.Step{Text: "Fixed.", In: 80, Out: 5}
	case !strings.Contains(body, "CAREFUL") || strings.Contains(body, "wrong in t-b") && !strings.Contains(body, "THOROUGH"):
		return fakemodel.Step{Text: "I give up.", In: 50, Out: 5}
	}
	args, _ := json.Marshal(map[string]string{"path": "m.go", "content": testtree.Fixed})
	return fakemodel.Step{Calls: []fakemodel.Call{{Name: "write_file", Args: string(args)}}, In: 60, Out: 40}
}

// newLedger initialises a ledger of the Double suite with the anchor.
func newLedger(t *testing.T) *ledger {
	t.Helper()
	return newLedgerAt(t, "0.5", "1")
}

// newLedgerAt is newLedger at the gate's alpha and looks.
func newLedgerAt(t *testing.T, alpha, looks string, init ...string) *ledger {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a ledger through the anchor's sandbox: slow; run without -short")
	}
	srv, err := fakemodel.Start(repeatStep(fakemodel.Step{Func: careful}, 2000)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	l := &ledger{Ledger: Ledger{Home: t.TempDir(), Tasks: filepath.Join(t.TempDir(), "suite")}, srv: srv}
	for _, id := range []string{"t-a", "t-b"} { // one kind: the gate counts them as one group
		task := testtree.DoubleTask(id, nil)
		testtree.Write(t, filepath.Join(l.Tasks, "train", id), task)
		testtree.WriteFile(t, filepath.Join(l.Tasks, "train", id, "task.toml"), task["task.toml"]+"group = \"double\"\n")
	}
	testtree.AddTask(t, l.Tasks, "holdout", "h-a", nil)
	l.harness = filepath.Join(t.TempDir(), "harness")
	_, file, _, _ := runtime.Caller(0)
	if err := os.CopyFS(l.harness, os.DirFS(filepath.Join(filepath.Dir(file), "..", "harness"))); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MODEL_API", "openai")
	t.Setenv("MODEL_URL", srv.URL)
	t.Setenv("MODEL_NAME", "scripted")
	t.Setenv("ANCHOR_JOBS", "2")
	if code := l.anchor(append([]string{"init", "--harness", l.harness, "--alpha", alpha, "--looks", looks},
		init...)...); code != 0 {
		t.Fatalf("anchor init: exit status %d", code)
	}
	return l
}

func repeatStep(s fakemodel.Step, n int) []fakemodel.Step {
	out := make([]fakemodel.Step, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// anchor runs an anchor command on the ledger and returns its exit status.
func (l *ledger) anchor(args ...string) int {
	return anchor.Main(append([]string{args[0], "--home", l.Home, "--tasks", l.Tasks}, args[1:]...))
}

// apply submits the edit of the harness's system prompt that appends line,
// and returns the anchor's exit status (0 accepted, 1 rejected).
func (l *ledger) apply(t *testing.T, line string) int {
	t.Helper()
	work := t.TempDir()
	if err := os.CopyFS(work, os.DirFS(l.harness)); err != nil {
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
	git("commit", "-qm", "head")
	prompt, err := os.ReadFile(filepath.Join(work, "system_prompt.md"))
	if err != nil {
		t.Fatal(err)
	}
	testtree.WriteFile(t, filepath.Join(work, "system_prompt.md"), string(prompt)+line+"\n")
	dir := t.TempDir()
	testtree.WriteFile(t, filepath.Join(dir, "c.diff"), git("diff"))
	c, _ := json.Marshal(map[string]any{"diff": "c.diff", "component": "system_prompt.md", "hypothesis": line})
	testtree.WriteFile(t, filepath.Join(dir, "c.json"), string(c))
	return l.anchor("apply", "--candidate", filepath.Join(dir, "c.json"))
}

// exec runs a statement on the ledger behind the anchor's back: a tamper.
func (l *ledger) exec(t *testing.T, q string, args ...any) {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(l.Home, "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatal(err)
	}
}
