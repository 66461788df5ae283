package anchor

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
	return a.evaluate(ctx, hash, split, nil, 0, a.Repeats, force)
}

// evaluate is Evaluate on the split's tasks named in ids, or on all of them
// when ids is nil, with the n repeats from index first.
func (a *Anchor) evaluate(ctx context.Context, hash, split string, ids []string, first, n int, force bool) (
	splitEval, error) {
	dirs, _ := filepath.Glob(filepath.Join(a.Tasks, split, "*", "task.toml"))
	if split != "train" && split != "holdout" && split != "sealed" || len(dirs) == 0 {
		return splitEval{}, fmt.Errorf("no tasks in %s; --split is train, holdout or sealed, "+
			"and --tasks / ANCHOR_TASKS a suite with <split>/<id>/task.toml", filepath.Join(a.Tasks, split))
	}
	unnamed := func(d string) bool { return ids != nil && !slices.Contains(ids, filepath.Base(filepath.Dir(d))) }
	dirs = slices.DeleteFunc(dirs, unnamed)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	e := splitEval{Tasks: map[string]float64{}, Runs: make([]Run, len(dirs)*n)}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, a.Jobs)
	start, done, cached, sum := time.Now(), 0, 0, 0.0
	for i := range e.Runs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			r, err := a.RunTask(ctx, hash, filepath.Dir(dirs[i/n]), first+i%n, force)
			if err != nil {
				cancel(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			e.Runs[i], done = r, done+1
			e.Tasks[r.TaskID] += r.Score / float64(n)
			e.Tokens += r.TokensIn + r.TokensOut
			cached += b2i(r.Cached)
			sum += r.Score
			elapsed := time.Since(start)
			left := elapsed / time.Duration(done) * time.Duration(len(e.Runs)-done)
			fmt.Fprintf(os.Stderr, "%s %s %d/%d mean %.3f, %s in, ~%s left: ", a.phase, split, done, len(e.Runs),
				sum/float64(done), elapsed.Round(time.Second), left.Round(time.Second))
			fmt.Fprintf(os.Stderr, "%-24s r%d %5.3f %3d/%-3d %7d tokens cached=%-5v %s\n", r.TaskID, r.Repeat, r.Score,
				r.Passed, r.Total, r.TokensIn+r.TokensOut, r.Cached, Printable(cmp.Or(r.Error, string(r.Outcome)), 300))
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return splitEval{}, err
	}
	for _, d := range dirs { // summed in task order, so equal scores give equal means
		e.Mean += e.Tasks[filepath.Base(filepath.Dir(d))] / float64(len(dirs))
	}
	fmt.Fprintf(os.Stderr, "%s mean %.3f over %d tasks (repeats: %d, cached runs: %d)\n", split, e.Mean,
		len(dirs), n, cached)
	err := put(a.db, "evals", "harness_hash, split, model, score, n_tasks, cached, created_at",
		hash, split, a.Model(), e.Mean, len(dirs), cached, now())
	return e, err
}
