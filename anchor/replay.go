package anchor

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Replay runs recorded run id again in a fresh sandbox, with the run's own
// harness or another (a folder or a snapshot hash), its model answered only
// from the reply cache: no request goes upstream. It says whether the score
// and the trace (timestamps aside) reproduce, or at which request the
// harness first sent something the record does not hold. The replay is not
// a run of the ledger: it is neither recorded nor served from the run cache.
func (a *Anchor) Replay(ctx context.Context, id, harness string) error {
	rs, err := scan(a.db, (*Run).fields, `SELECT `+runCols+` FROM runs WHERE id = ?`, id)
	if err != nil {
		return err
	}
	if len(rs) == 0 {
		return status{fmt.Errorf("no run %q in this ledger; ratchet log --json names runs", id), 2}
	}
	old := rs[0]
	t, err := LoadTask(filepath.Join(a.Tasks, old.Split, old.TaskID))
	files, err2 := ReadTree(t.Dir, true)
	switch {
	case err != nil:
		err = fmt.Errorf("task %s/%s of run %s is missing from the suite %s", old.Split, old.TaskID, id, a.Tasks)
		return status{err, 2}
	case err2 != nil || HashOf(files) != old.TaskHash:
		err = fmt.Errorf("task %s/%s on disk has changed since run %s was scored on it", old.Split, old.TaskID, id)
		return status{err, 2}
	case old.Model != a.Model():
		err = fmt.Errorf("run %s was of model %s; set MODEL_NAME and MODEL_OPTIONS as they were", id, old.Model)
		return status{err, 2}
	case a.Screen == "off":
		return status{errors.New("this ledger records no replies (ANCHOR_SCREEN=off): nothing to replay"), 2}
	}
	// A fresh run of the recorded one's task, repeat and model: nothing of
	// the record (score, outcome, trace) is carried over.
	r := Run{ID: strings.ToLower(rand.Text()[:16]), HarnessHash: old.HarnessHash, TaskHash: old.TaskHash,
		TaskID: old.TaskID, Split: old.Split, Model: old.Model, Repeat: old.Repeat, ExitCode: -1, CreatedAt: now()}
	if harness != "" {
		if r.HarnessHash, err = a.resolveHarness(harness); err != nil {
			return err
		}
	}
	a.incumbent = old.HarnessHash // the replies the recorded run's harness was served
	a.replay = a.replies(&r, false)
	a.replay.only = true
	a.attempt(ctx, t, &r, false)
	r.Score = float64(r.Passed) / float64(max(r.Total, 1))
	defer os.Remove(a.path("traces", r.ID+".jsonl"))
	defer os.Remove(a.path("reports", r.ID+".json.gz"))
	all := a.replay.served == old.Requests+old.CachedReplies // it asked all the record holds
	same := r.Score == old.Score && a.replay.diverged == 0 && all && r.TracePath != "" &&
		sameTrace(old.TracePath, r.TracePath)
	verdict := "reproduces the recorded score and trace"
	switch {
	case a.replay.diverged > 0:
		verdict = fmt.Sprintf("diverged: request %d is not in the record (the harness sent something else)",
			a.replay.diverged)
	case !all:
		verdict = fmt.Sprintf("the harness asked %d of the %d requests the record holds", a.replay.served,
			old.Requests+old.CachedReplies)
	case !same:
		verdict = "the requests all matched the record, but the score or the trace differs"
	}
	line := fmt.Sprintf("replay of run %s (task %s, repeat %d, harness %.12s): score %.3f (recorded %.3f, %s), "+
		"%d replies from the record, 0 upstream: %s", id, old.TaskID, old.Repeat, r.HarnessHash, r.Score,
		old.Score, r.Outcome, a.replay.served, verdict)
	fmt.Fprintln(a.Out, Printable(line, 4000))
	if !same {
		return status{fmt.Errorf("run %s did not reproduce", id), 1}
	}
	return nil
}

// sameTrace says whether two traces hold the same events, their times aside.
func sameTrace(a, b string) bool {
	read := func(path string) []string {
		raw, _ := os.ReadFile(path)
		var events []string
		for line := range bytes.Lines(raw) {
			var e map[string]any
			if json.Unmarshal(line, &e) == nil {
				delete(e, "ts")
			}
			text, _ := json.Marshal(e)
			events = append(events, string(text))
		}
		return events
	}
	x, y := read(a), read(b)
	return len(x) > 0 && strings.Join(x, "\n") == strings.Join(y, "\n")
}
