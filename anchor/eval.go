package anchor

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"text/tabwriter"
)

// Eval is the result of a harness on a split.
type Eval struct {
	Harness string  `json:"harness_hash"`
	Split   string  `json:"split"`
	Model   string  `json:"model"`
	Mean    float64 `json:"mean"`
	Cached  int     `json:"cached"`
	Tokens  int64   `json:"tokens"`
	Tasks   []Run   `json:"tasks"`
}

// Evaluate runs every task of a split, --jobs at a time, using the run
// cache, and records an evals row.
func (a *Anchor) Evaluate(ctx context.Context, hash, split string, force bool) (Eval, error) {
	if err := a.frozenModel(); err != nil {
		return Eval{}, err
	}
	if split != "train" && split != "holdout" && split != "sealed" {
		return Eval{}, usageError{"--split must be train, holdout or sealed"}
	}
	dirs, _ := filepath.Glob(filepath.Join(a.Tasks, split, "*", "task.toml"))
	if len(dirs) == 0 {
		return Eval{}, fmt.Errorf("no tasks in %s; set --tasks / ANCHOR_TASKS to a suite with %s/<id>/task.toml", filepath.Join(a.Tasks, split), split)
	}
	ev := Eval{Harness: hash, Split: split, Model: a.Model(), Tasks: make([]Run, len(dirs))}
	errs := make([]error, len(dirs))
	var mu sync.Mutex
	done := 0
	tty := isTerminal()
	sem := make(chan struct{}, a.Jobs)
	var wg sync.WaitGroup
	for i, d := range dirs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			ev.Tasks[i], errs[i] = a.RunTask(ctx, hash, filepath.Dir(d), force)
			mu.Lock()
			done++
			if tty {
				fmt.Fprintf(os.Stderr, "\r%s %d/%d %-40s", split, done, len(dirs), ev.Tasks[i].TaskID)
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if tty {
		fmt.Fprint(os.Stderr, "\r\033[K")
	}
	for i, r := range ev.Tasks {
		if errs[i] != nil {
			return ev, errs[i]
		}
		ev.Mean += r.Score / float64(len(dirs))
		ev.Tokens += r.TokensIn + r.TokensOut
		if r.Cached {
			ev.Cached++
		}
	}
	_, err := a.db.Exec(`INSERT INTO evals(harness_hash, split, model, score, n_tasks, cached, created_at) VALUES(?,?,?,?,?,?,?)`,
		hash, split, ev.Model, ev.Mean, len(dirs), ev.Cached, now())
	return ev, err
}

func isTerminal() bool {
	st, err := os.Stderr.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func (a *Anchor) evalCommand(ctx context.Context, harness, split string, force, asJSON bool) error {
	hash, err := a.resolveHarness(harness)
	if err != nil {
		return err
	}
	ev, err := a.Evaluate(ctx, hash, split, force)
	if err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(a.Out).Encode(ev)
	}
	tw := tabwriter.NewWriter(a.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TASK\tSCORE\tPASSED\tTOKENS\tCACHED\tERROR")
	for _, r := range ev.Tasks {
		fmt.Fprintf(tw, "%s\t%.3f\t%d/%d\t%d\t%v\t%s\n", r.TaskID, r.Score, r.Passed, r.Total, r.TokensIn+r.TokensOut, r.Cached, r.Error)
	}
	fmt.Fprintf(tw, "mean\t%.3f\t\t%d\t%d/%d\t\n", ev.Mean, ev.Tokens, ev.Cached, len(ev.Tasks))
	return tw.Flush()
}

// Traces lists train runs for the evolver: the latest run of each task for
// the harness (the head by default), optionally only those that failed.
func (a *Anchor) Traces(harness string, failed, asJSON bool) error {
	if harness == "" {
		harness = "head"
	}
	hash, err := a.resolveHarness(harness)
	if err != nil {
		return err
	}
	q := `SELECT ` + runCols + ` FROM runs r WHERE split = 'train' AND harness_hash = ? AND model = ? AND created_at =
		(SELECT MAX(created_at) FROM runs WHERE task_id = r.task_id AND split = 'train' AND harness_hash = r.harness_hash AND model = r.model)`
	if failed {
		q += ` AND score < 1`
	}
	rows, err := a.db.Query(q+` ORDER BY task_id`, hash, a.Model())
	if err != nil {
		return err
	}
	defer rows.Close()
	runs := []Run{}
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return err
		}
		runs = append(runs, r)
	}
	if asJSON {
		return json.NewEncoder(a.Out).Encode(runs)
	}
	for _, r := range runs {
		fmt.Fprintf(a.Out, "%s\t%s\t%.3f\t%s\n", r.ID, r.TaskID, r.Score, r.TracePath)
	}
	return rows.Err()
}
