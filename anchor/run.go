package anchor

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Run is one runs row: a harness on a task under a model.
type Run struct {
	ID          string  `json:"id"`
	HarnessHash string  `json:"harness_hash"`
	TaskHash    string  `json:"task_hash"`
	TaskID      string  `json:"task_id"`
	Split       string  `json:"split"`
	Model       string  `json:"model"`
	Score       float64 `json:"score"`
	Passed      int     `json:"passed"`
	Total       int     `json:"total"`
	TokensIn    int64   `json:"tokens_in"`
	TokensOut   int64   `json:"tokens_out"`
	WallMS      int64   `json:"wall_ms"`
	ExitCode    int     `json:"exit_code"`
	TracePath   string  `json:"trace_path"`
	Error       string  `json:"error,omitempty"`
	CreatedAt   string  `json:"created_at"`
	Cached      bool    `json:"cached"`
}

const runCols = `id, harness_hash, task_hash, task_id, split, model, score, passed, total, tokens_in, tokens_out,
	wall_ms, exit_code, trace_path, error, created_at`

func scanRun(row interface{ Scan(...any) error }) (Run, error) {
	var r Run
	err := row.Scan(&r.ID, &r.HarnessHash, &r.TaskHash, &r.TaskID, &r.Split, &r.Model, &r.Score, &r.Passed, &r.Total,
		&r.TokensIn, &r.TokensOut, &r.WallMS, &r.ExitCode, &r.TracePath, &r.Error, &r.CreatedAt)
	return r, err
}

// RunTask runs harness hash on the task in dir, or returns the cached run
// for (harness, task, model). Runs that errored or timed out are recorded
// but never served from the cache.
func (a *Anchor) RunTask(ctx context.Context, hash, dir string, force bool) (Run, error) {
	t, err := LoadTask(dir)
	if err != nil {
		return Run{}, err
	}
	th, err := taskHash(t.Dir)
	if err != nil {
		return Run{}, fmt.Errorf("hash task %s: %w", t.ID, err)
	}
	if !force {
		r, err := scanRun(a.db.QueryRow(`SELECT `+runCols+` FROM runs WHERE harness_hash = ? AND task_hash = ? AND model = ?
			AND error = '' ORDER BY created_at DESC LIMIT 1`, hash, th, a.Model()))
		if err == nil {
			r.Cached = true
			return r, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return Run{}, fmt.Errorf("read run cache: %w", err)
		}
	}
	id := make([]byte, 8)
	rand.Read(id)
	r := Run{ID: hex.EncodeToString(id), HarnessHash: hash, TaskHash: th, TaskID: t.ID, Split: t.Split, Model: a.Model(), CreatedAt: now()}
	r.TracePath, _ = filepath.Abs(a.path("traces", r.ID+".jsonl"))
	start := time.Now()
	a.attempt(ctx, t, &r)
	r.WallMS = time.Since(start).Milliseconds()
	if r.Total > 0 {
		r.Score = float64(r.Passed) / float64(r.Total)
	}
	_, err = a.db.Exec(`INSERT INTO runs(`+runCols+`) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`, r.ID, r.HarnessHash, r.TaskHash,
		r.TaskID, r.Split, r.Model, r.Score, r.Passed, r.Total, r.TokensIn, r.TokensOut, r.WallMS, r.ExitCode, r.TracePath, r.Error, r.CreatedAt)
	if err != nil {
		return r, fmt.Errorf("record run: %w", err)
	}
	return r, ctx.Err()
}

// attempt fills in r: build, agent sandbox, scoring sandbox. Failures of the
// harness are written into r, not returned.
func (a *Anchor) attempt(ctx context.Context, t Task, r *Run) {
	tmp, err := os.MkdirTemp(a.path("tmp"), r.ID+"-")
	if err != nil {
		r.Error = "create run dir: " + err.Error()
		return
	}
	defer os.RemoveAll(tmp)
	bin, err := a.build(r.HarnessHash)
	if err != nil {
		r.ExitCode, r.Error = -1, err.Error()
		os.WriteFile(r.TracePath, nil, 0o644)
		return
	}
	work := filepath.Join(tmp, "work")
	if err := copyTree(filepath.Join(t.Dir, "repo"), filepath.Join(work, "task"), 1<<30); err != nil {
		r.Error = "copy repo: " + err.Error()
		return
	}
	os.WriteFile(filepath.Join(work, "prompt.txt"), []byte(t.Prompt), 0o644)
	os.WriteFile(filepath.Join(work, "test.txt"), []byte(t.Test+"\n"), 0o644)
	os.WriteFile(filepath.Join(work, "trace.jsonl"), nil, 0o644)
	sock := filepath.Join(tmp, "model.sock")
	proxy, err := StartProxy(sock, a.API, a.URL, a.key, a.Budget)
	if err != nil {
		r.Error = "start model proxy: " + err.Error()
		return
	}
	cache, err := a.cacheCopy(tmp, "agent-cache")
	if err != nil {
		proxy.Close()
		r.Error = err.Error()
		return
	}
	box := Box{Work: work, Cache: cache, Timeout: t.Timeout, Args: []string{"/opt/harness", "/work"},
		RO: map[string]string{"/opt/harness": bin}, RW: map[string]string{"/run/model.sock": sock},
		Env: map[string]string{"MODEL_SOCKET": "/run/model.sock", "MODEL_API": a.API, "MODEL_NAME": a.ModelName, "MODEL_OPTIONS": a.Options}}
	code, out, timedOut, err := box.Run(ctx)
	proxy.Close()
	r.TokensIn, r.TokensOut = proxy.Used()
	r.ExitCode = code
	if trace, terr := os.ReadFile(filepath.Join(work, "trace.jsonl")); terr == nil {
		os.WriteFile(r.TracePath, trace, 0o644)
	}
	switch {
	case err != nil:
		r.Error = err.Error()
		return
	case ctx.Err() != nil:
		r.Error = "interrupted"
		return
	case timedOut:
		r.Error = fmt.Sprintf("agent run timed out after %s", t.Timeout)
	case code != 0:
		r.Error = fmt.Sprintf("harness exited with status %d: %s", code, lastLine(out))
	}
	// Score whatever the agent left, even after a timeout, but such runs are
	// never served from the cache.
	a.score(ctx, t, work, tmp, r)
}

// score runs the task's tests in a fresh sandbox on the agent's final tree
// with hidden/ overlaid.
func (a *Anchor) score(ctx context.Context, t Task, work, tmp string, r *Run) {
	dir := filepath.Join(tmp, "score")
	err := copyTree(filepath.Join(work, "task"), filepath.Join(dir, "task"), 1<<30)
	if err == nil {
		if _, serr := os.Stat(filepath.Join(t.Dir, "hidden")); serr == nil {
			err = copyTree(filepath.Join(t.Dir, "hidden"), filepath.Join(dir, "task"), 1<<30)
		}
	}
	var report string
	if err == nil && t.JUnit != "" {
		report = filepath.Join(dir, "task", filepath.Clean("/"+t.JUnit))
		err = os.RemoveAll(report) // a report planted by the agent must not count
	}
	if err != nil {
		r.Passed, r.Total, r.Error = 0, 1, joinErr(r.Error, "prepare scoring: "+err.Error())
		return
	}
	cache, err := a.cacheCopy(tmp, "score-cache")
	if err != nil {
		r.Total, r.Error = 1, joinErr(r.Error, err.Error())
		return
	}
	box := Box{Work: dir, Cache: cache, Dir: "/work/task", Timeout: max(t.Timeout, 5*time.Minute), Args: []string{"sh", "-c", t.scoreCommand()}}
	code, out, timedOut, err := box.Run(ctx)
	if err != nil || timedOut {
		r.Total, r.Error = 1, joinErr(r.Error, fmt.Sprintf("scoring: %v (timed out: %v)", err, timedOut))
		return
	}
	var rep []byte
	if report != "" {
		if st, err := os.Lstat(report); err == nil && st.Mode().IsRegular() {
			rep, _ = os.ReadFile(report)
		}
	}
	r.Passed, r.Total = Score(t, out, code, rep)
}

func joinErr(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

// build compiles a snapshot offline, once per hash. A snapshot that does not
// compile yields the compiler's message as an error, also cached.
func (a *Anchor) build(hash string) (string, error) {
	a.buildMu.Lock()
	defer a.buildMu.Unlock()
	bin, _ := filepath.Abs(a.path("builds", hash, "harness"))
	errFile := a.path("builds", hash, "error.txt")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if b, err := os.ReadFile(errFile); err == nil {
		return "", errors.New(string(b))
	}
	src, err := os.MkdirTemp(a.path("tmp"), "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(src)
	if err := a.extract(hash, src); err != nil {
		return "", err
	}
	cacheDir, _ := filepath.Abs(a.path("cache", "build"))
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin+".tmp", ".")
	cmd.Dir = src
	cmd.Env = goEnv(cacheDir)
	if out, err := cmd.CombinedOutput(); err != nil {
		msg := "harness does not build: " + strings.TrimSpace(string(out))
		if _, ok := err.(*exec.ExitError); !ok {
			return "", fmt.Errorf("run go build: %w; is Go installed?", err)
		}
		writeAtomic(errFile, []byte(msg))
		return "", errors.New(msg)
	}
	return bin, os.Rename(bin+".tmp", bin)
}

// warmSource is compiled once into a trusted build cache that every sandbox
// gets a private copy of, so a test run does not rebuild the standard
// library and no run can poison another's cache.
const warmSource = `package warm

import (
	_ "bufio"
	_ "bytes"
	_ "container/heap"
	_ "encoding/json"
	_ "errors"
	_ "fmt"
	_ "io"
	_ "math"
	_ "os"
	_ "regexp"
	_ "sort"
	_ "strconv"
	_ "strings"
	_ "sync"
	_ "time"
	_ "unicode"
	"testing"
)

func TestWarm(t *testing.T) {}
`

func (a *Anchor) cacheCopy(tmp, name string) (string, error) {
	a.buildMu.Lock()
	warm, _ := filepath.Abs(a.path("cache", "warm"))
	if _, err := os.Stat(filepath.Join(warm, "ready")); err != nil {
		src, _ := os.MkdirTemp(a.path("tmp"), "warm-")
		os.WriteFile(filepath.Join(src, "go.mod"), []byte("module warm\n"), 0o644)
		os.WriteFile(filepath.Join(src, "warm_test.go"), []byte(warmSource), 0o644)
		cmd := exec.Command("go", "test", "-json", "-count=1", ".")
		cmd.Dir = src
		cmd.Env = goEnv(warm)
		out, err := cmd.CombinedOutput()
		os.RemoveAll(src)
		if err != nil {
			a.buildMu.Unlock()
			return "", fmt.Errorf("warm the build cache: %v: %s", err, lastLine(out))
		}
		os.WriteFile(filepath.Join(warm, "ready"), nil, 0o644)
	}
	a.buildMu.Unlock()
	dst := filepath.Join(tmp, name)
	if err := copyTree(warm, dst, 4<<30); err != nil {
		return "", fmt.Errorf("copy build cache: %w", err)
	}
	return dst, nil
}

// goEnv is the environment of the anchor's own, offline go commands.
func goEnv(cache string) []string {
	return append(os.Environ(), "CGO_ENABLED=0", "GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off", "GOFLAGS=-mod=mod", "GOCACHE="+cache)
}
