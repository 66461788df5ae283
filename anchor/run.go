package anchor

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Run is one runs row: a harness on a task under a model, one repeat.
type Run struct {
	ID          string  `json:"id"`
	HarnessHash string  `json:"harness_hash"`
	TaskHash    string  `json:"task_hash"`
	TaskID      string  `json:"task_id"`
	Split       string  `json:"split"`
	Model       string  `json:"model"`
	Repeat      int     `json:"repeat"`
	Score       float64 `json:"score"`
	Passed      int     `json:"passed"`
	Total       int     `json:"total"`
	TokensIn    int64   `json:"tokens_in"`
	TokensOut   int64   `json:"tokens_out"`
	WallMS      int64   `json:"wall_ms"`
	ExitCode    int     `json:"exit_code"`
	TracePath   string  `json:"trace_path"`
	Outcome     string  `json:"outcome"`
	Error       string  `json:"error"`
	CreatedAt   string  `json:"created_at"`
	Cached      bool    `json:"cached"`
}

const runCols = `id, harness_hash, task_hash, task_id, split, model, repeat, score, passed, total, tokens_in, tokens_out, wall_ms, exit_code, trace_path, outcome, error, created_at`

func (r *Run) fields() []any {
	return []any{&r.ID, &r.HarnessHash, &r.TaskHash, &r.TaskID, &r.Split, &r.Model, &r.Repeat, &r.Score, &r.Passed, &r.Total,
		&r.TokensIn, &r.TokensOut, &r.WallMS, &r.ExitCode, &r.TracePath, &r.Outcome, &r.Error, &r.CreatedAt}
}

// RunTask runs harness hash on the task in dir (one repeat), or returns the
// cached run for (harness, task, model, repeat). Runs that went wrong are
// recorded but never served from the cache. An infrastructure failure is
// tried three times and then returned as an error: it is never a score.
func (a *Anchor) RunTask(ctx context.Context, hash, dir string, repeat int, force bool) (Run, error) {
	t, err := LoadTask(dir)
	if err != nil {
		return Run{}, err
	}
	task, err := ReadTree(t.Dir, true)
	if err != nil {
		return Run{}, fmt.Errorf("read task %s: %w", t.ID, err)
	}
	th := HashOf(task)
	cached, err := scan(a.db, (*Run).fields, `SELECT `+runCols+` FROM runs WHERE harness_hash = ? AND task_hash = ? AND model = ? AND repeat = ?
		AND error = '' ORDER BY created_at DESC LIMIT 1`, hash, th, a.Model(), repeat)
	if err != nil {
		return Run{}, fmt.Errorf("read the run cache: %w", err)
	}
	if len(cached) == 1 && !force {
		cached[0].Cached = true
		return cached[0], nil
	}
	var r Run
	for try := 1; try <= 3; try++ {
		r = Run{ID: strings.ToLower(rand.Text()[:16]), HarnessHash: hash, TaskHash: th, TaskID: t.ID, Split: t.Split,
			Model: a.Model(), Repeat: repeat, ExitCode: -1, Total: 1, CreatedAt: now()}
		start := time.Now()
		if a.Runner != "" {
			a.remote(ctx, t, &r)
		} else {
			a.attempt(ctx, t, &r)
		}
		r.WallMS, r.Score = time.Since(start).Milliseconds(), float64(r.Passed)/float64(max(r.Total, 1))
		if err := put(a.db, "runs", runCols, r.fields()...); err != nil {
			return r, fmt.Errorf("record run: %w", err)
		}
		if ctx.Err() != nil {
			return r, ctx.Err()
		}
		if r.Outcome != "infra" {
			return r, nil
		}
	}
	return r, fmt.Errorf("infrastructure failure on task %s after 3 tries: %s; fix it and run again", t.ID, r.Error)
}

// attempt fills in r: build, agent sandbox, scoring sandbox. What goes
// wrong is written into r, not returned; r.Outcome says whose fault it was.
func (a *Anchor) attempt(ctx context.Context, t Task, r *Run) {
	fail := func(outcome string, err error) {
		r.Outcome, r.Error = outcome, err.Error()
	}
	tmp, err := os.MkdirTemp(a.path("tmp"), r.ID+"-")
	if err != nil {
		fail("infra", err)
		return
	}
	defer os.RemoveAll(tmp)
	defer bound(tmp, DefaultDisk)() // unmounted before the folder is removed
	work, sock := filepath.Join(tmp, "work"), filepath.Join(tmp, "model.sock")
	bin, err := a.build(r.HarnessHash)
	if errors.Is(err, errNoBuild) {
		fail("build", err)
		return
	}
	files := map[string][]byte{"prompt.txt": []byte(t.Prompt), "test.txt": []byte(t.Test + "\n")}
	if err == nil {
		err = copyTree(filepath.Join(t.Dir, "repo"), filepath.Join(work, "task"))
	}
	if err == nil {
		err = WriteTree(work, files)
	}
	warm, werr := WarmCache()
	proxy, perr := StartProxy(sock, ProxyConfig{API: a.API, Upstream: a.URL, Model: a.ModelName, Key: a.key, Budget: a.Budget, Seed: r.Repeat})
	if err = errors.Join(err, werr, perr); err != nil {
		if perr == nil {
			proxy.Close()
		}
		fail("infra", err)
		return
	}
	box := Box{Work: work, Cache: warm, Timeout: t.Timeout, Harness: bin, Socket: sock, Args: []string{"/opt/harness", "/work"},
		Env: []string{"MODEL_API", a.API, "MODEL_NAME", a.ModelName, "MODEL_OPTIONS", a.Options}, Memory: a.Memory}
	code, out, timedOut, err := box.Run(ctx)
	proxy.Close()
	r.TokensIn, r.TokensOut = proxy.Used()
	r.ExitCode = code
	switch {
	case err != nil:
		fail("infra", err)
		return
	case ctx.Err() != nil:
		fail("infra", ctx.Err())
		return
	case proxy.Failure() != "":
		fail("infra", errors.New("the model server failed: "+proxy.Failure()))
		return
	}
	a.keepTrace(filepath.Join(work, "trace.jsonl"), r)
	if a.Keep != "" {
		defer copyTree(filepath.Join(work, "task"), a.Keep)
	}
	switch {
	case timedOut:
		fail("timeout", fmt.Errorf("agent run timed out after %s", t.Timeout))
	case code != 0:
		tail := strings.TrimSpace(string(out[max(0, len(out)-300):]))
		fail("crash", fmt.Errorf("harness exited with status %d: %s", code, tail))
	}
	// Score what the agent left even after a timeout or a crash; such runs
	// are still never served from the cache.
	agent, err := ReadTree(filepath.Join(work, "task"), false)
	if err != nil {
		r.Outcome, r.Error = "scoring", strings.TrimPrefix(r.Error+"; scoring: "+err.Error(), "; ")
		return
	}
	s := ScoreTree(ctx, t, agent, filepath.Join(tmp, "score"))
	r.Passed, r.Total = s.Passed, s.Total
	if s.Outcome != "" || s.Error != "" {
		r.Outcome, r.Error = cmp.Or(s.Outcome, r.Outcome, "scoring"), strings.TrimPrefix(r.Error+"; "+s.Error, "; ")
	}
	if s.Outcome == "forged" {
		r.Passed = 0
	}
	r.Outcome = cmp.Or(r.Outcome, "ok")
}

// maxTrace caps the trace the anchor keeps of a run.
const maxTrace = 64 << 20

// keepTrace copies the trace the harness left into traces/<id>.jsonl. It
// takes only a regular file, opened without following links or blocking on
// a FIFO, and keeps at most maxTrace bytes of it.
func (a *Anchor) keepTrace(src string, r *Run) {
	f, err := os.OpenFile(src, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return
	}
	dst, err := filepath.Abs(a.path("traces", r.ID+".jsonl"))
	if err != nil {
		return
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer out.Close()
	if _, err := io.Copy(out, io.LimitReader(f, maxTrace)); err == nil {
		r.TracePath = dst
	}
}

var buildID = sync.OnceValue(func() string {
	exe, err := os.Executable()
	b, rerr := os.ReadFile(exe)
	if err != nil || rerr != nil {
		return "unknown"
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
})

// remote hands one run to the operator's runner (ANCHOR_RUNNER): the job as
// JSON on its stdin, the run record and the path of its trace as JSON on its
// stdout. The runner is trusted like bubblewrap; a runner that fails is an
// infrastructure failure.
func (a *Anchor) remote(ctx context.Context, t Task, r *Run) {
	snapshot, _ := filepath.Abs(a.path("snapshots", r.HarnessHash))
	job, _ := json.Marshal(map[string]any{"harness_hash": r.HarnessHash, "snapshot": snapshot, "task_id": t.ID, "split": t.Split,
		"task_dir": t.Dir, "task_hash": r.TaskHash, "model": r.Model, "budget": a.Budget, "timeout": t.Timeout.String(),
		"repeat": r.Repeat, "anchor_build": buildID()})
	argv := strings.Fields(a.Runner)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(job), &stdout, &stderr
	var res struct {
		Run
		Trace string `json:"trace"`
	}
	err := cmd.Run()
	if err == nil {
		err = json.Unmarshal(stdout.Bytes(), &res)
	}
	if err != nil {
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		r.Outcome, r.Error = "infra", fmt.Sprintf("runner %s: %v: %s", argv[0], err, lines[len(lines)-1])
		return
	}
	r.Passed, r.Total, r.TokensIn, r.TokensOut = res.Passed, max(res.Total, 1), res.TokensIn, res.TokensOut
	r.ExitCode, r.Outcome, r.Error = res.ExitCode, res.Outcome, res.Error
	if res.Trace != "" {
		a.keepTrace(res.Trace, r)
	}
}

// errNoBuild marks a harness that does not compile: the harness's 0.
var errNoBuild = errors.New("harness does not build")

// build compiles a stored snapshot offline, once per hash.
func (a *Anchor) build(hash string) (string, error) {
	a.buildMu.Lock()
	defer a.buildMu.Unlock()
	bin, err := filepath.Abs(a.path("builds", hash))
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if _, err := a.readSnapshot(hash); err != nil {
		return "", err
	}
	if out, err := goCmd(a.path("snapshots", hash), cacheDir("build"), "build", "-trimpath", "-o", bin+".tmp", "."); err != nil {
		return "", fmt.Errorf("%w: %v: %s", errNoBuild, err, strings.TrimSpace(string(out)))
	}
	return bin, os.Rename(bin+".tmp", bin)
}

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
// first infrastructure failure stops it. Progress goes to stderr.
func (a *Anchor) Evaluate(ctx context.Context, hash, split string, force bool) (splitEval, error) {
	dirs, _ := filepath.Glob(filepath.Join(a.Tasks, split, "*", "task.toml"))
	if split != "train" && split != "holdout" && split != "sealed" || len(dirs) == 0 {
		return splitEval{}, fmt.Errorf("no tasks in %s; --split is train, holdout or sealed, and --tasks / ANCHOR_TASKS a suite with <split>/<id>/task.toml", filepath.Join(a.Tasks, split))
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	runs := make([]Run, len(dirs)*a.Repeats)
	errs := make([]error, len(runs))
	p := newProgress(split, len(runs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, a.Jobs)
	for i := range runs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			if ctx.Err() != nil {
				errs[i] = ctx.Err()
				return
			}
			runs[i], errs[i] = a.RunTask(ctx, hash, filepath.Dir(dirs[i/a.Repeats]), i%a.Repeats, force)
			if errs[i] != nil {
				cancel()
				return
			}
			p.done(runs[i], a.phase)
		})
	}
	wg.Wait()
	p.finish()
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return splitEval{}, err
		}
	}
	if err := errors.Join(errs...); err != nil {
		return splitEval{}, err
	}
	e := splitEval{Tasks: map[string]float64{}, Runs: runs}
	cached := 0
	for _, r := range runs {
		e.Tasks[r.TaskID] += r.Score / float64(a.Repeats)
		e.Tokens += r.TokensIn + r.TokensOut
		if r.Cached {
			cached++
		}
	}
	for _, d := range dirs { // summed in task order, so equal scores give equal means
		e.Mean += e.Tasks[filepath.Base(filepath.Dir(d))]
	}
	e.Mean /= float64(len(dirs))
	fmt.Fprintf(os.Stderr, "%s mean %.3f ± %.3f (standard error) over %d tasks × %d repeats (%d runs from the cache)%s\n",
		split, e.Mean, stdErr(e), len(dirs), a.Repeats, cached, flaky(runs))
	err := put(a.db, "evals", "harness_hash, split, model, score, n_tasks, cached, created_at", hash, split, a.Model(), e.Mean, len(dirs), cached, now())
	return e, err
}

// stdErr is the standard error of a split's mean over its tasks.
func stdErr(e splitEval) float64 {
	n := float64(len(e.Tasks))
	if n < 2 {
		return 0
	}
	ss := 0.0
	for _, s := range e.Tasks {
		ss += (s - e.Mean) * (s - e.Mean)
	}
	return math.Sqrt(ss / (n - 1) / n)
}

// flaky lists the tasks whose repeats disagree.
func flaky(runs []Run) string {
	first, names := map[string]float64{}, []string{}
	for _, r := range runs {
		s, seen := first[r.TaskID]
		if !seen {
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

// progress reports finished runs on stderr: one plain line each, and on a
// terminal a live status line beneath them.
type progress struct {
	mu          sync.Mutex
	split       string
	n, finished int
	sum         float64
	start       time.Time
	live        bool
}

func newProgress(split string, n int) *progress {
	st, err := os.Stderr.Stat()
	live := err == nil && st.Mode()&os.ModeCharDevice != 0
	return &progress{split: split, n: n, start: time.Now(), live: live}
}

func (p *progress) done(r Run, phase string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finished++
	p.sum += r.Score
	line := fmt.Sprintf("%-28s r%d %5.3f %3d/%-3d %7d tokens  cached=%-5v %s", r.TaskID, r.Repeat, r.Score, r.Passed, r.Total,
		r.TokensIn+r.TokensOut, r.Cached, cmp.Or(r.Error, r.Outcome))
	if !p.live {
		fmt.Fprintln(os.Stderr, line)
		return
	}
	elapsed := time.Since(p.start)
	left := elapsed / time.Duration(p.finished) * time.Duration(p.n-p.finished)
	fmt.Fprintf(os.Stderr, "\r\033[K%s\n%s %s: %d/%d runs, mean so far %.3f, %s elapsed, about %s left", line, phase, p.split,
		p.finished, p.n, p.sum/float64(p.finished), elapsed.Round(time.Second), left.Round(time.Second))
}

func (p *progress) finish() {
	if p.live {
		fmt.Fprint(os.Stderr, "\r\033[K")
	}
}
