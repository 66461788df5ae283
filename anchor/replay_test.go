package anchor

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// anchor replay reruns a recorded run on its recorded replies: the same
// harness reproduces its score and trace at zero upstream requests; a
// changed harness is told where it first sent something else, still at zero.
func TestReplayReproducesAndNamesTheDivergence(t *testing.T) {
	slow(t)
	t.Parallel()
	e, dir := gateSuite(t, coinModel("never"), addExitTask)
	runs, err := scan(e.a.db, (*Run).fields, `SELECT `+runCols+` FROM runs WHERE split = 'train' ORDER BY task_id LIMIT 1`)
	if err != nil || len(runs) != 1 || runs[0].Requests == 0 {
		t.Fatalf("no recorded train run with requests: %v %+v", err, runs)
	}
	id, n0 := runs[0].ID, len(e.srv.Requests())
	var before int
	e.a.db.QueryRow(`SELECT COUNT(*) FROM runs`).Scan(&before)
	e.out.Reset()
	if err := e.a.Replay(ctx(), id, ""); err != nil || !strings.Contains(e.out.String(), "reproduces") {
		t.Errorf("replay of %s: %v\n%s", id, err, e.out.String())
	}
	changed := filepath.Join(t.TempDir(), "h")
	if err := copyTree(dir, changed); err != nil {
		t.Fatal(err)
	}
	prompt := readHarness(t, dir, "system_prompt.md")
	os.WriteFile(filepath.Join(changed, "system_prompt.md"), []byte(prompt+"\nA sentence the record never saw.\n"), 0o644)
	e.out.Reset()
	err = e.a.Replay(ctx(), id, changed)
	var s status
	if !errors.As(err, &s) || s.code != 1 || !strings.Contains(e.out.String(), "diverged: request 1 ") {
		t.Errorf("replay with a changed prompt: %v\n%s", err, e.out.String())
	}
	var after int
	e.a.db.QueryRow(`SELECT COUNT(*) FROM runs`).Scan(&after)
	if got := len(e.srv.Requests()); got != n0 || after != before {
		t.Errorf("replays sent %d requests upstream and recorded %d runs; want none", got-n0, after-before)
	}
	// The replay scores its own run: a recorded score it does not reach is
	// not reproduced (nothing of the record is carried over).
	e.a.db.Exec(`UPDATE runs SET score = 0.123 WHERE id = ?`, id)
	e.out.Reset()
	if err := e.a.Replay(ctx(), id, ""); !errors.As(err, &s) || s.code != 1 || strings.Contains(e.out.String(), "reproduces") {
		t.Errorf("replay of a run whose recorded score was changed: %v\n%s", err, e.out.String())
	}
	if err := e.a.Replay(ctx(), "nosuchrun", ""); !errors.As(err, &s) || s.code != 2 {
		t.Errorf("an unknown run: %v", err)
	}
}
