package anchor

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Outcome says whose a run was, in the runs table's outcome column and the
// JSON of a run. Every outcome but OutcomeInfra is the harness's doing, a
// score and served from the run cache; infra is the machine's, never a
// score and never cached. A ledger from before outcomes has "".
type Outcome string

const (
	OutcomeOK      Outcome = "ok"      // the harness ran and its tree was scored
	OutcomeTimeout Outcome = "timeout" // the agent ran out of time; its tree was scored
	OutcomeCrash   Outcome = "crash"   // the harness exited non-zero; its tree was scored
	OutcomeBuild   Outcome = "build"   // the harness does not compile: it scores 0
	OutcomeForged  Outcome = "forged"  // the tree tried to fake a result: it scores 0
	OutcomeScoring Outcome = "scoring" // scoring went wrong, the tree's fault
	OutcomeInfra   Outcome = "infra"   // the machine failed: tried again, never a score
)

// Run is one runs row: a harness on a task under a model, one repeat.
type Run struct {
	ID          string  `json:"id"`
	HarnessHash string  `json:"harness_hash"`
	TaskHash    string  `json:"task_hash"`
	TaskID      string  `json:"task_id"`
	Group       string  `json:"group"` // the task's group (see Task)
	Split       string  `json:"split"`
	Model       string  `json:"model"`
	Repeat      int     `json:"repeat"`
	Budget      int64   `json:"budget"`
	Memory      int64   `json:"memory"`
	Score       float64 `json:"score"`
	Passed      int     `json:"passed"`
	Total       int     `json:"total"`
	TokensIn    int64   `json:"tokens_in"`
	TokensOut   int64   `json:"tokens_out"`
	WallMS      int64   `json:"wall_ms"`
	ExitCode    int     `json:"exit_code"`
	TracePath   string  `json:"trace_path"`
	Outcome     Outcome `json:"outcome"`
	Error       string  `json:"error"`
	CreatedAt   string  `json:"created_at"`
	Judge       string  `json:"judge"` // the anchor build and Go toolchain that scored it
	// Requests went upstream; CachedReplies (charged CachedTokens) came
	// from the reply cache.
	Requests      int   `json:"requests"`
	CachedReplies int   `json:"cached_replies"`
	CachedTokens  int64 `json:"cached_tokens"`
	Cached        bool  `json:"cached"` // not a column: from the run cache
}

const runCols = `id, harness_hash, task_hash, task_id, group_id, split, model, repeat, budget, memory, score,
  passed, total, tokens_in, tokens_out, wall_ms, exit_code, trace_path, outcome, error, created_at, judge,
  requests, cached_replies, cached_tokens`

func (r *Run) fields() []any {
	return []any{&r.ID, &r.HarnessHash, &r.TaskHash, &r.TaskID, &r.Group, &r.Split, &r.Model, &r.Repeat,
		&r.Budget, &r.Memory, &r.Score, &r.Passed, &r.Total, &r.TokensIn, &r.TokensOut, &r.WallMS, &r.ExitCode,
		&r.TracePath, &r.Outcome, &r.Error, &r.CreatedAt, &r.Judge, &r.Requests, &r.CachedReplies, &r.CachedTokens}
}

// RunTask runs harness hash on the task in dir (one repeat), or returns the
// cached run for (harness, task, model, repeat). An infrastructure failure
// is tried three times and then returned as an error: it is never a score
// and never cached.
func (a *Anchor) RunTask(ctx context.Context, hash, dir string, repeat int, force bool) (Run, error) {
	t, err := LoadTask(dir)
	if err != nil {
		return Run{}, err
	}
	task, err := ReadTree(t.Dir, true)
	if err != nil {
		return Run{}, fmt.Errorf("read task %s: %w", t.ID, err)
	}
	base := Run{HarnessHash: hash, TaskHash: HashOf(task), TaskID: t.ID, Group: t.Group,
		Split: t.Split, Model: a.Model(), Repeat: repeat, Budget: a.Budget, Memory: a.Memory,
		ExitCode: -1, Total: 1, Judge: judge()}
	// Every run that was the harness's doing is the answer, failures too:
	// were they re-run, a harness could redraw its losses and keep its
	// wins. The machine's failures (infra) are run again, and so are runs
	// of ledgers from before outcomes, which an older, forgeable scoring
	// counted. Another judge's runs (another anchor build or Go toolchain)
	// are run again: an upgrade that closed a forgery must not serve them.
	cached, err := scan(a.db, (*Run).fields, `SELECT `+runCols+` FROM runs WHERE harness_hash = ?
		AND task_hash = ? AND model = ? AND repeat = ? AND budget = ? AND memory = ? AND judge = ?
		AND outcome NOT IN ('', ?) ORDER BY created_at DESC LIMIT 1`,
		hash, base.TaskHash, base.Model, repeat, a.Budget, a.Memory, base.Judge, OutcomeInfra)
	if err != nil {
		return Run{}, fmt.Errorf("read the run cache: %w", err)
	}
	if len(cached) == 1 && !force {
		cached[0].Cached = true
		return cached[0], nil
	}
	for try := 1; ; try++ {
		r := base
		r.ID, r.CreatedAt = strings.ToLower(rand.Text()[:16]), now()
		start := time.Now()
		if a.Runner != "" {
			a.remote(ctx, t, &r, force)
		} else {
			a.attempt(ctx, t, &r, force)
		}
		r.Total = max(r.Total, 1) // a score is always a number
		r.WallMS, r.Score = time.Since(start).Milliseconds(), float64(r.Passed)/float64(r.Total)
		r.Error = Printable(r.Error, 4000)
		if err := put(a.db, "runs", runCols, r.fields()...); err != nil {
			return r, fmt.Errorf("record run: %w", err)
		}
		if ctx.Err() != nil || r.Outcome != OutcomeInfra {
			return r, ctx.Err()
		}
		if try == 3 {
			err := fmt.Errorf("infrastructure failure on task %s, three times: %s; fix it and rerun", t.ID, r.Error)
			return r, status{err, 3}
		}
	}
}

// attempt fills in r: build, agent sandbox, scoring sandbox. What goes
// wrong is written into r, not returned.
func (a *Anchor) attempt(ctx context.Context, t Task, r *Run, force bool) {
	// The agent's sandbox writes only in tmp/agent, its own bounded space;
	// scoring gets another, so an agent that fills its own (bytes or inodes)
	// cannot make scoring fail and its loss a redraw.
	tmp, err := a.scratch(r.ID)
	if err == nil {
		err = os.Mkdir(filepath.Join(tmp, "agent"), 0o755)
	}
	if err != nil {
		r.Outcome, r.Error = OutcomeInfra, err.Error()
		return
	}
	defer os.RemoveAll(tmp)
	defer bound(filepath.Join(tmp, "agent"), runDisk)() // unmounted before the folder is removed
	sockDir, err := os.MkdirTemp("", "anchor-sock-")    // short: a socket path has at most 107 bytes
	if err != nil {
		r.Outcome, r.Error = OutcomeInfra, err.Error()
		return
	}
	defer os.RemoveAll(sockDir)
	work, sock := filepath.Join(tmp, "agent", "work"), filepath.Join(sockDir, "model.sock")
	bin, err := a.build(ctx, r.HarnessHash)
	if errors.Is(err, errNoBuild) {
		r.Outcome, r.Error = OutcomeBuild, err.Error()
		return
	}
	var proxy *Proxy
	var warm string
	cache := cmp.Or(a.replay, a.replies(r, force)) // a replay brings its own view
	for _, step := range []func(){
		func() { err = copyTree(filepath.Join(t.Dir, "repo"), filepath.Join(work, "task")) },
		func() {
			err = WriteTree(work, map[string][]byte{"prompt.txt": []byte(t.Prompt), "test.txt": []byte(t.Test + "\n")})
		},
		func() { warm, err = WarmCache() },
		func() {
			proxy, err = StartProxy(sock, ProxyConfig{API: a.API, Upstream: a.URL, Model: a.ModelName, Key: a.key,
				Options: a.Options, Budget: a.Budget, Seed: r.Repeat, Replies: cache})
		},
	} {
		if err == nil {
			step()
		}
	}
	if err != nil {
		r.Outcome, r.Error = OutcomeInfra, err.Error()
		return
	}
	box := Box{Work: work, Cache: warm, Timeout: t.Timeout, Harness: bin, Socket: sock,
		Args: []string{"/opt/harness", "/work"},
		Env:  []string{"MODEL_API", a.API, "MODEL_NAME", a.ModelName, "MODEL_OPTIONS", a.Options}, Memory: a.Memory}
	code, out, timedOut, err := box.Run(ctx)
	proxy.Close() // its usage is counted as replies arrive, not at close
	r.TokensIn, r.TokensOut = proxy.Used()
	cache.counts(r)
	r.ExitCode = code
	switch {
	case err != nil || ctx.Err() != nil:
		r.Outcome, r.Error = OutcomeInfra, errors.Join(err, ctx.Err()).Error()
		return
	case proxy.Failure() != "" && proxy.Probe(ctx) != nil:
		r.Outcome, r.Error = OutcomeInfra, "the model server failed: "+proxy.Failure()
		return
	case timedOut:
		r.Outcome, r.Error = OutcomeTimeout, fmt.Sprintf("agent run timed out after %s", t.Timeout)
	case code != 0:
		r.Outcome, r.Error = OutcomeCrash, fmt.Sprintf("harness exited with status %d: %s", code,
			strings.TrimSpace(string(out[max(0, len(out)-300):])))
	}
	a.keepTrace(filepath.Join(work, "trace.jsonl"), r)
	if a.Keep != "" {
		defer copyTree(filepath.Join(work, "task"), a.Keep)
	}
	// Score what the agent left even after a timeout or a crash.
	agent, err := ReadTree(filepath.Join(work, "task"), false)
	s := Scored{Total: 1, Outcome: OutcomeScoring, Error: fmt.Sprint(err)}
	if err == nil {
		s = ScoreTree(ctx, t, agent, filepath.Join(tmp, "score"), a.Memory)
	}
	a.keepReport(r.ID, &s)
	r.Passed, r.Total = s.Passed, s.Total
	r.Outcome, r.Error = cmp.Or(s.Outcome, r.Outcome, OutcomeOK), strings.Trim(r.Error+"; "+s.Error, "; ")
	if s.Outcome == OutcomeInfra { // the machine's failure, told without the harness's own words
		r.Error = s.Error
	}
}

// scratch makes a folder for one job under tmp/<pid>, which sweep removes,
// mounts and all, once this process is gone.
func (a *Anchor) scratch(name string) (string, error) {
	mine := a.path("tmp", strconv.Itoa(os.Getpid()))
	if err := os.MkdirAll(mine, 0o755); err != nil {
		return "", err
	}
	return os.MkdirTemp(mine, name+"-")
}

// keepTrace copies the trace the harness left into traces/<id>.jsonl: data
// only (see openData), at most 64 MiB of it.
func (a *Anchor) keepTrace(src string, r *Run) {
	f, err := openData(filepath.Dir(src), filepath.Base(src))
	if err != nil {
		return
	}
	defer f.Close()
	dst, _ := filepath.Abs(a.path("traces", r.ID+".jsonl"))
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer out.Close()
	if _, err := io.Copy(out, io.LimitReader(f, 64<<20)); err == nil {
		r.TracePath = dst
	}
}

// keepReport stores what scoring found and saw as reports/<id>.json.gz,
// beside the trace, for ratchet verify; the scoring sandbox bounds its size.
// A report it cannot write is the machine's failure: the run is infra (tried
// again, never a score), not a score that ratchet verify could not re-derive.
func (a *Anchor) keepReport(id string, s *Scored) {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	err := errors.Join(json.NewEncoder(z).Encode(s), z.Close())
	if err = errors.Join(err, os.WriteFile(a.path("reports", id+".json.gz"), b.Bytes(), 0o644)); err != nil {
		*s = Scored{Total: 1, Outcome: OutcomeInfra, Error: "keep the scoring's report: " + err.Error()}
	}
}

// remote hands one run to the operator's runner (ANCHOR_RUNNER): the job as
// JSON on its stdin, the run record and the path of its trace as JSON on its
// stdout; the runner writes the scoring's report where "report" says (from
// the anchor's working folder, its own), for ratchet verify. The runner is
// trusted like bubblewrap; a runner that fails is an infrastructure failure.
func (a *Anchor) remote(ctx context.Context, t Task, r *Run, force bool) {
	snapshot, _ := filepath.Abs(a.path("snapshots", r.HarnessHash))
	job, _ := json.Marshal(map[string]any{"harness_hash": r.HarnessHash, "snapshot": snapshot, "task_id": t.ID,
		"split": t.Split, "task_dir": t.Dir, "task_hash": r.TaskHash, "model": r.Model, "budget": a.Budget,
		"memory": a.Memory, "timeout": t.Timeout.String(), "repeat": r.Repeat, "force": force,
		"anchor_build": anchorBuild(), "report": a.path("reports", r.ID+".json.gz")})
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
		r.Outcome, r.Error = OutcomeInfra, fmt.Sprintf("runner %s: %v: %s", argv[0], err, lines[len(lines)-1])
		return
	}
	r.Passed, r.Total, r.TokensIn, r.TokensOut = res.Passed, max(res.Total, 1), res.TokensIn, res.TokensOut
	r.ExitCode, r.Outcome, r.Error = res.ExitCode, res.Outcome, res.Error
	// the worker's cache
	r.Requests, r.CachedReplies, r.CachedTokens = res.Requests, res.CachedReplies, res.CachedTokens
	a.keepTrace(res.Trace, r)
}
