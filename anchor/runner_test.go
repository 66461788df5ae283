package anchor

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"ratchet/harness/fakemodel"
)

// A candidate no better than the head turns its losses into draws the
// anchor throws away, keeping its wins: a lost run exits 1
// (runner-redraw-losses-by-crash.txtar), or leaves a folder where a test
// file goes (runner-redraw-losses-by-tree-conflict.txtar). Either way it
// was measured at pass@k against the head's pass@1, and accepted once k
// was large enough (measured: after 5 submissions). A task must be drawn
// once per candidate and repeat, win or lose, and the candidate never
// accepted.
func TestLostRunsAreDrawnOnce(t *testing.T) {
	slow(t)
	t.Parallel()
	for _, name := range []string{"runner-redraw-losses-by-crash", "runner-redraw-losses-by-tree-conflict"} {
		t.Run(name, func(t *testing.T) {
			component, edit := attackFor(t, name).edit()
			e, dir := gateEnv(t, coinModel("no phrase helps here"))
			cand := e.candidate(t, component, makeDiff(t, dir, map[string]string{component: edit}))
			var g Gen
			for i := range 6 {
				err := e.a.Apply(ctx(), cand)
				g = e.last(t)
				t.Logf("apply %d: %s: %s (%v)", i+1, g.Decision, g.Reason, err)
				if g.Decision == "accept" {
					t.Errorf("a candidate no better than the head was accepted after %d submissions: %s", i+1, g.Reason)
					break
				}
			}
			rows, err := e.a.db.Query(`SELECT task_id, COUNT(*), GROUP_CONCAT(outcome) FROM runs WHERE harness_hash = ?
				GROUP BY task_id HAVING COUNT(*) > 1`, g.Hash)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			for rows.Next() {
				var task, outcomes string
				var n int
				rows.Scan(&task, &n, &outcomes)
				t.Errorf("task %s was drawn %d times for the same candidate: %s", task, n, outcomes)
			}
		})
	}
}

// A scoring sandbox killed because the eval was cancelled (another task's
// infrastructure failure stops the eval; so does Ctrl-C) was recorded as a
// clean run, its truncated score served from the cache from then on
// (runner-cancelled-scoring.txtar: the agent's Sum is slow). Here the
// context is cancelled while scoring runs; the next run of the same
// harness and task must not come from the cache: it starts a run of its
// own, which is cancelled in turn once it has (scored to the end, the slow
// Sum would take a minute).
func TestCancelledScoringIsNeverCached(t *testing.T) {
	slow(t)
	t.Parallel()
	e := newEnv(t)
	task := addTask(t, e.suite, "train", "cancelled")
	h := e.hostile(t, attackFor(t, "runner-cancelled-scoring").harness(), nil)
	// cancelOnce returns a context cancelled wait after a path matching
	// pattern (under the anchor's tmp/<pid>/<run>) exists, and a channel
	// closed when it was.
	cancelOnce := func(pattern string, wait time.Duration) (context.Context, context.CancelFunc, chan struct{}) {
		c, cancel := context.WithCancel(ctx())
		seen := make(chan struct{})
		go func() {
			for c.Err() == nil {
				if dirs, _ := filepath.Glob(filepath.Join(e.a.Home, "tmp", "*", "*", pattern)); len(dirs) > 0 {
					close(seen)
					time.Sleep(wait)
					cancel()
					return
				}
				time.Sleep(50 * time.Millisecond)
			}
		}()
		return c, cancel, seen
	}
	c, cancel, _ := cancelOnce(filepath.Join("score", "work", "task"), 3*time.Second) // compiled, and inside the slow test
	r, err := e.a.RunTask(c, h, task, 0, true)
	cancel()
	t.Logf("outcome %q score %v error %q: %v", r.Outcome, r.Score, r.Error, err)
	if left, _ := filepath.Glob(filepath.Join(e.a.Home, "tmp", "*", "*")); len(left) > 0 {
		t.Fatalf("the cancelled run left %v", left)
	}
	c, cancel, started := cancelOnce("agent", 0)
	next, err := e.a.RunTask(c, h, task, 0, false)
	cancel()
	select {
	case <-started:
		t.Logf("the next run started afresh: outcome %q: %v", next.Outcome, err)
	default:
		if !next.Cached {
			t.Fatalf("the next run neither came from the cache nor started a run of its own: outcome %q, %v", next.Outcome, err)
		}
	}
	if next.Cached {
		t.Errorf("a scoring cut short by cancellation is served from the cache as score %v (outcome %q)", next.Score, next.Outcome)
	}
}

// The run cache's key was (harness, task, model, repeat): no budget, no
// memory. The freeze is what keeps a ledger's runs under one budget, and
// it applies only once init has recorded one. A fleet worker runs every
// job as `anchor run --budget N --memory M` in its own ANCHOR_HOME, which
// nothing ever initializes (fleet/worker.go), so the worker's anchor
// answered a job at budget 5,000 with the run it made for another
// ledger's job at 100,000, from its cache, and the second ledger recorded
// it as its own. Here the worker's two invocations are played through the
// command line on one home, with the baseline harness.
func TestRunCacheIsKeyedByTheBudget(t *testing.T) {
	slow(t)
	t.Parallel()
	var mu sync.Mutex
	var offered []int
	e := newEnv(t, repeat(fakemodel.Step{Func: func(r fakemodel.Request) fakemodel.Step {
		var body struct {
			MaxTokens int `json:"max_tokens"`
		}
		json.Unmarshal(r.Body, &body)
		mu.Lock()
		offered = append(offered, body.MaxTokens)
		mu.Unlock()
		return fakemodel.Step{Text: "I give up.", In: 50, Out: 5}
	}}, 100)...)
	task := addTask(t, e.suite, "train", "worker")
	dir := copyHarness(t)
	workerHome := filepath.Join(t.TempDir(), "worker-anchor")
	anchorRun := func(budget string) Run {
		self, _ := os.Executable()
		cmd := exec.Command(self, "run", "--harness", dir, "--task", task, "--json", "--budget", budget, "--memory", "2147483648")
		cmd.Env = append(os.Environ(), "ANCHOR_TEST_MAIN=1", "ANCHOR_HOME="+workerHome, "ANCHOR_RUNNER=", "MODEL_API=openai", "MODEL_URL="+e.srv.URL,
			"MODEL_NAME=scripted", "MODEL_OPTIONS=", "MODEL_API_KEY="+e.a.key, "ANCHOR_BUDGET=", "ANCHOR_MEMORY=")
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("anchor run --budget %s: %v: %s", budget, err, stderr.String())
		}
		var r Run
		if err := json.Unmarshal([]byte(stdout.String()), &r); err != nil {
			t.Fatalf("anchor run printed %q: %v", stdout.String(), err)
		}
		return r
	}
	first := anchorRun("100000")
	second := anchorRun("5000")
	mu.Lock()
	t.Logf("job at budget 100000: run %s cached=%v; job at budget 5000: run %s cached=%v; max_tokens the upstream was offered: %v",
		first.ID, first.Cached, second.ID, second.Cached, offered)
	mu.Unlock()
	if second.Cached || second.ID == first.ID {
		t.Errorf("a run at budget 5000 was answered with run %s, measured at budget 100000", first.ID)
	}
}

// A scoring's report that cannot be written was silently dropped, and the
// run recorded as a score ratchet verify could never re-derive. Now it is
// the machine's failure: the run is infra, tried again, then the run fails
// with the reason, and nothing is recorded as a score.
func TestUnwritableReportIsInfra(t *testing.T) {
	slow(t)
	t.Parallel()
	e := newEnv(t, repeat(fixer(""), 20)...)
	task := addTask(t, e.suite, "train", "report")
	hash, err := e.a.Snapshot(harnessDir(t))
	if err != nil {
		t.Fatal(err)
	}
	reports := filepath.Join(e.a.Home, "reports")
	if err := os.RemoveAll(reports); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(reports, []byte("a file where the reports folder was"), 0o644)
	r, err := e.a.RunTask(ctx(), hash, task, 0, true)
	if err == nil || !strings.Contains(err.Error(), "keep the scoring's report") || r.Outcome != OutcomeInfra {
		t.Fatalf("a run whose report could not be kept: outcome %q, %v; want infra naming the report", r.Outcome, err)
	}
	var scored int
	e.a.db.QueryRow(`SELECT COUNT(*) FROM runs WHERE task_id = 'report' AND outcome != 'infra'`).Scan(&scored)
	if scored != 0 {
		t.Errorf("%d runs without a report were recorded as scores", scored)
	}
}
