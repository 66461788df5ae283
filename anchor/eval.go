package anchor

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// splitEval is a harness evaluated on a split: each task's score is the mean
// of its repeats.
type splitEval struct {
	Mean   float64
	Tasks  map[string]float64
	Runs   []Run
	Tokens int64
}

// Evaluate runs every task of a split Repeats times, --jobs at a time,
// through the run cache, records an evals row and returns the result. The
// first infrastructure failure stops it. A line per run goes to stderr.
func (a *Anchor) Evaluate(ctx context.Context, hash, split string, force bool) (splitEval, error) {
	return a.evaluate(ctx, hash, split, nil, force)
}

// evaluate is Evaluate on the split's tasks named in ids, or on all of them
// when ids is nil.
func (a *Anchor) evaluate(ctx context.Context, hash, split string, ids []string, force bool) (
	splitEval, error) {
	dirs, _ := filepath.Glob(filepath.Join(a.Tasks, split, "*", "task.toml"))
	if split != "train" && split != "holdout" && split != "sealed" || len(dirs) == 0 {
		return splitEval{}, fmt.Errorf("no tasks in %s; --split is train, holdout or sealed, "+
			"and --tasks / ANCHOR_TASKS a suite with <split>/<id>/task.toml", filepath.Join(a.Tasks, split))
	}
	if ids != nil {
		named := func(d string) bool { return slices.Contains(ids, filepath.Base(filepath.Dir(d))) }
		dirs = slices.DeleteFunc(dirs, func(d string) bool { return !named(d) })
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	e := splitEval{Tasks: map[string]float64{}, Runs: make([]Run, len(dirs)*a.Repeats)}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, a.Jobs)
	start, done, cached, sum := time.Now(), 0, 0, 0.0
	st, err := os.Stderr.Stat()
	live := err == nil && st.Mode()&os.ModeCharDevice != 0
	for i := range e.Runs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			r, err := a.RunTask(ctx, hash, filepath.Dir(dirs[i/a.Repeats]), i%a.Repeats, force)
			if err != nil {
				cancel(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			e.Runs[i], done = r, done+1
			e.Tasks[r.TaskID] += r.Score / float64(a.Repeats)
			e.Tokens += r.TokensIn + r.TokensOut
			cached += b2i(r.Cached)
			sum += r.Score
			elapsed := time.Since(start)
			left := elapsed / time.Duration(done) * time.Duration(len(e.Runs)-done)
			status := fmt.Sprintf("%s %s %d/%d mean %.3f, %s in, ~%s left", a.phase, split, done, len(e.Runs),
				sum/float64(done), elapsed.Round(time.Second), left.Round(time.Second))
			why := Printable(cmp.Or(r.Error, string(r.Outcome)), 300)
			line := fmt.Sprintf("%-24s r%d %5.3f %3d/%-3d %7d tokens cached=%-5v %s", r.TaskID, r.Repeat,
				r.Score, r.Passed, r.Total, r.TokensIn+r.TokensOut, r.Cached, why)
			if live { // on a terminal: the run's line, then the status redrawn beneath it
				fmt.Fprintf(os.Stderr, "\r\033[K%s\n%s", line, status)
			} else {
				fmt.Fprintf(os.Stderr, "%s: %s\n", status, line)
			}
		})
	}
	wg.Wait()
	if live {
		fmt.Fprint(os.Stderr, "\r\033[K")
	}
	if err := context.Cause(ctx); err != nil {
		return splitEval{}, err
	}
	for _, d := range dirs { // summed in task order, so equal scores give equal means
		e.Mean += e.Tasks[filepath.Base(filepath.Dir(d))] / float64(len(dirs))
	}
	fmt.Fprintf(os.Stderr, "%s mean %.3f ± %.3f (standard error) over %d tasks (repeats: %d, "+
		"cached runs: %d)%s\n", split, e.Mean, stdErr(e), len(dirs), a.Repeats, cached, flaky(e.Runs))
	err = put(a.db, "evals", "harness_hash, split, model, score, n_tasks, cached, created_at",
		hash, split, a.Model(), e.Mean, len(dirs), cached, now())
	return e, err
}

// stdErr is the standard error of a split's mean over its tasks.
func stdErr(e splitEval) float64 {
	n, ss := float64(len(e.Tasks)), 0.0
	for _, s := range e.Tasks {
		ss += (s - e.Mean) * (s - e.Mean)
	}
	return math.Sqrt(ss / max(n-1, 1) / n)
}

// flaky lists the tasks whose repeats disagree.
func flaky(runs []Run) string {
	first, names := map[string]float64{}, []string{}
	for _, r := range runs {
		if s, seen := first[r.TaskID]; !seen {
			first[r.TaskID] = r.Score
		} else if s != r.Score && !slices.Contains(names, r.TaskID) {
			names = append(names, r.TaskID)
		}
	}
	if len(names) == 0 {
		return ""
	}
	slices.Sort(names)
	return "; flaky: " + strings.Join(names, ", ")
}
