package anchor

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Task is one task folder: task.toml, repo/, hidden/, reference/.
type Task struct {
	Dir, ID, Split, Prompt, Test, JUnit string
	Timeout                             time.Duration
}

var tomlPair = regexp.MustCompile(`(?ms)^[ \t]*(\w+)[ \t]*=[ \t]*(?:"""\n?(.*?)"""|'''\n?(.*?)'''|"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)')`)

// LoadTask reads a task folder. task.toml holds string keys only: basic
// (with escapes), literal, and multi-line (taken verbatim) strings. The
// split is the name of the folder the task is in.
func LoadTask(dir string) (Task, error) {
	abs, _ := filepath.Abs(dir)
	t := Task{Dir: abs, ID: filepath.Base(abs), Split: filepath.Base(filepath.Dir(abs)), Timeout: 10 * time.Minute}
	b, err := os.ReadFile(filepath.Join(abs, "task.toml"))
	vals := map[string]string{}
	for _, m := range tomlPair.FindAllStringSubmatch(string(b), -1) {
		v := m[2] + m[3] + m[5]
		if m[4] != "" && json.Unmarshal([]byte(`"`+m[4]+`"`), &v) != nil {
			err = fmt.Errorf("bad string for %s", m[1])
		}
		vals[m[1]] = v
	}
	t.Prompt, t.Test, t.JUnit = vals["prompt"], vals["test"], vals["junit"]
	if err == nil && (t.Prompt == "" || t.Test == "") {
		err = errors.New("task.toml needs prompt and test strings")
	}
	if s := vals["timeout"]; err == nil && s != "" {
		t.Timeout, err = time.ParseDuration(s)
	}
	if st, serr := os.Stat(filepath.Join(abs, "repo")); err == nil && (serr != nil || !st.IsDir()) {
		err = errors.New("no repo/ folder")
	}
	if err != nil {
		return t, fmt.Errorf("task %s: %w (see tasks/README.md for the format)", dir, err)
	}
	return t, nil
}

// scoreCommand is the test command as scoring runs it: go test reports JSON.
func (t Task) scoreCommand() string {
	if rest, ok := strings.CutPrefix(strings.TrimSpace(t.Test), "go test"); ok && !strings.Contains(rest, "-json") {
		return "go test -json" + rest
	}
	return t.Test
}

var junitCase, junitBad = regexp.MustCompile(`<testcase[\s>/]`), regexp.MustCompile(`<(failure|error|skipped)[\s>/]`)
var testFunc = regexp.MustCompile(`(?m)^func (Test\w*)\(\w+ \*testing\.T\)`)

// Score counts passed and total tests from the scoring run: go test -json
// events, a JUnit XML report, or the exit status. Skips never pass, every
// Go test in hidden/ must report (so a planted TestMain or a broken build
// cannot pass), and a suite that never ran is one failure.
func Score(t Task, out []byte, exit int, report []byte) (passed, total int) {
	switch {
	case t.JUnit != "": // a <testcase> holding <failure>, <error> or <skipped> did not pass
		total = len(junitCase.FindAll(report, -1))
		passed = max(total-len(junitBad.FindAll(report, -1)), 0)
	case strings.Contains(t.scoreCommand(), "go test -json"):
		final, ran, seen := map[string]string{}, map[string]bool{}, map[string]bool{}
		for _, line := range strings.Split(string(out), "\n") {
			var e struct{ Action, Package, Test string }
			if json.Unmarshal([]byte(line), &e) != nil || (e.Action != "pass" && e.Action != "fail" && e.Action != "skip") {
				continue
			}
			final[e.Package+" "+e.Test], ran[e.Package], seen[e.Test] = e.Action, ran[e.Package] || e.Test != "", true
		}
		for k, a := range final {
			pkg, test, _ := strings.Cut(k, " ")
			if test != "" || (a == "fail" && !ran[pkg]) { // a package that failed before any test ran counts once
				total++
				passed += map[bool]int{true: 1}[a == "pass"]
			}
		}
		hidden, _ := readTree(filepath.Join(t.Dir, "hidden"))
		for f, b := range hidden {
			for _, m := range testFunc.FindAllStringSubmatch(string(b), -1) {
				if strings.HasSuffix(f, "_test.go") && !seen[m[1]] {
					total++ // a hidden test that never reported did not run
				}
			}
		}
	case exit == 0:
		passed, total = 1, 1
	}
	if exit != 0 && passed == total {
		total++ // the command failed for a reason no test reported
	}
	return passed, max(total, 1)
}

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
	Error       string  `json:"error"`
	CreatedAt   string  `json:"created_at"`
	Cached      bool    `json:"cached"`
}

func tokens(runs []Run) (n int64) {
	for _, r := range runs {
		n += r.TokensIn + r.TokensOut
	}
	return n
}

// RunTask runs harness hash on the task in dir, or returns the cached run
// for (harness, task, model). Runs that errored or timed out are recorded
// but never served from the cache.
func (a *Anchor) RunTask(ctx context.Context, hash, dir string, force bool) (Run, error) {
	t, err := LoadTask(dir)
	th, herr := tarHash(t.Dir)
	cached, qerr := query[Run](a.db, `SELECT * FROM runs WHERE harness_hash = ? AND task_hash = ? AND model = ? AND error = ''
		ORDER BY created_at DESC LIMIT 1`, hash, th, a.Model())
	if err = errors.Join(err, herr, qerr); err != nil || (len(cached) == 1 && !force) {
		c := append(cached, Run{})[0]
		c.Cached = err == nil
		return c, err
	}
	r := Run{ID: strings.ToLower(rand.Text()[:16]), HarnessHash: hash, TaskHash: th, TaskID: t.ID, Split: t.Split, Model: a.Model(), CreatedAt: now()}
	r.TracePath, _ = filepath.Abs(a.path("traces", r.ID+".jsonl"))
	start := time.Now()
	a.attempt(ctx, t, &r)
	r.WallMS, r.Score = time.Since(start).Milliseconds(), float64(r.Passed)/float64(r.Total)
	return r, errors.Join(insert(a.db, "runs", r), ctx.Err())
}

// attempt fills in r: build, agent sandbox, scoring sandbox. What goes
// wrong with the harness is written into r, not returned.
func (a *Anchor) attempt(ctx context.Context, t Task, r *Run) {
	r.ExitCode, r.Total = -1, 1
	tmp, err := os.MkdirTemp(a.path("tmp"), r.ID+"-")
	defer os.RemoveAll(tmp)
	work, sock := filepath.Join(tmp, "work"), filepath.Join(tmp, "model.sock")
	var bin, cache string
	var proxy *Proxy
	for _, step := range []func(){
		func() { bin, err = a.build(r.HarnessHash) },
		func() { err = copyTree(filepath.Join(t.Dir, "repo"), filepath.Join(work, "task"), 1<<30) },
		func() {
			err = errors.Join(os.WriteFile(filepath.Join(work, "prompt.txt"), []byte(t.Prompt), 0o644),
				os.WriteFile(filepath.Join(work, "test.txt"), []byte(t.Test+"\n"), 0o644), os.WriteFile(filepath.Join(work, "trace.jsonl"), nil, 0o644))
		},
		func() { cache, err = a.cacheCopy(tmp, "agent-cache") },
		func() { proxy, err = StartProxy(sock, a.API, a.URL, a.key, a.Budget) },
	} {
		if err == nil {
			step()
		}
	}
	if err != nil {
		r.Error = err.Error()
		return
	}
	box := Box{Work: work, Cache: cache, Timeout: t.Timeout, Harness: bin, Socket: sock, Args: []string{"/opt/harness", "/work"},
		Env: []string{"MODEL_API", a.API, "MODEL_NAME", a.ModelName, "MODEL_OPTIONS", a.Options}}
	code, out, timedOut, err := box.Run(ctx)
	proxy.Close()
	r.TokensIn, r.TokensOut = proxy.Used()
	r.ExitCode = code
	if trace, terr := os.ReadFile(filepath.Join(work, "trace.jsonl")); terr == nil {
		os.WriteFile(r.TracePath, trace, 0o644)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	switch {
	case err != nil || ctx.Err() != nil:
		r.Error = errors.Join(err, ctx.Err()).Error()
		return
	case timedOut:
		r.Error = fmt.Sprintf("agent run timed out after %s", t.Timeout)
	case code != 0:
		r.Error = fmt.Sprintf("harness exited with status %d: %s", code, lines[len(lines)-1])
	}
	// Score what the agent left even after a timeout; such runs are still
	// never served from the cache.
	a.score(ctx, t, work, tmp, r)
}

// score runs the task's tests in a fresh sandbox on the agent's final tree
// with hidden/ overlaid. A report file the agent left is deleted first.
func (a *Anchor) score(ctx context.Context, t Task, work, tmp string, r *Run) {
	r.Passed, r.Total = 0, 1
	dir := filepath.Join(tmp, "score")
	report := filepath.Join(dir, "task", filepath.Clean("/"+t.JUnit))
	cache, err := a.cacheCopy(tmp, "score-cache")
	if err == nil {
		err = copyTree(filepath.Join(work, "task"), filepath.Join(dir, "task"), 1<<30)
	}
	if _, serr := os.Stat(filepath.Join(t.Dir, "hidden")); err == nil && serr == nil {
		err = copyTree(filepath.Join(t.Dir, "hidden"), filepath.Join(dir, "task"), 1<<30)
	}
	if err == nil && t.JUnit != "" {
		err = os.RemoveAll(report)
	}
	box := Box{Work: dir, Cache: cache, Dir: "/work/task", Timeout: max(t.Timeout, 5*time.Minute), Args: []string{"sh", "-c", t.scoreCommand()}}
	code, out, timedOut := 0, []byte(nil), false
	if err == nil {
		code, out, timedOut, err = box.Run(ctx)
	}
	if err = errors.Join(err, map[bool]error{true: errors.New("timed out")}[timedOut]); err != nil {
		r.Error = strings.TrimPrefix(r.Error+"; scoring: "+err.Error(), "; ")
		return
	}
	var rep []byte
	if st, err := os.Lstat(report); err == nil && st.Mode().IsRegular() && t.JUnit != "" {
		rep, _ = os.ReadFile(report)
	}
	r.Passed, r.Total = Score(t, out, code, rep)
}

// Evaluate runs every task of a split, --jobs at a time, through the run
// cache, records an evals row and returns the mean score. With show, it
// prints a row per task as each finishes, then the mean.
func (a *Anchor) Evaluate(ctx context.Context, hash, split string, force, show bool) (float64, []Run, error) {
	dirs, _ := filepath.Glob(filepath.Join(a.Tasks, split, "*", "task.toml"))
	if err := a.frozenModel(); err != nil || split != "train" && split != "holdout" && split != "sealed" || len(dirs) == 0 {
		return 0, nil, cmpErr(err, fmt.Errorf("no tasks in %s; --split is train, holdout or sealed, and --tasks / ANCHOR_TASKS a suite with <split>/<id>/task.toml", filepath.Join(a.Tasks, split)))
	}
	runs, errs := make([]Run, len(dirs)), make([]error, len(dirs))
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, a.Jobs)
	for i, d := range dirs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			r, err := a.RunTask(ctx, hash, filepath.Dir(d), force)
			mu.Lock()
			defer mu.Unlock()
			if runs[i], errs[i] = r, err; show && err == nil {
				fmt.Fprintf(a.Out, "%-28s %5.3f %3d/%-3d %7d tokens  cached=%-5v %s\n", r.TaskID, r.Score, r.Passed, r.Total, r.TokensIn+r.TokensOut, r.Cached, r.Error)
			}
		})
	}
	wg.Wait()
	mean, cached := 0.0, 0
	for _, r := range runs {
		mean, cached = mean+r.Score/float64(len(dirs)), cached+map[bool]int{true: 1}[r.Cached]
	}
	if err := errors.Join(errs...); err != nil {
		return 0, runs, err
	}
	if show {
		fmt.Fprintf(a.Out, "%s mean %.3f over %d tasks (%d from the cache)\n", split, mean, len(dirs), cached)
	}
	return mean, runs, insert(a.db, "evals", map[string]any{"harness_hash": hash, "split": split, "model": a.Model(), "score": mean,
		"n_tasks": len(dirs), "cached": cached, "created_at": now()})
}

func cmpErr(err, def error) error {
	if err != nil {
		return err
	}
	return def
}

// readTree reads the regular files under dir, skipping dot-entries, by
// slash-separated path. A symlink or special file is an error: snapshots
// and tasks hold plain files.
func readTree(dir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, p)
		switch {
		case err != nil:
			return err
		case p != dir && strings.HasPrefix(d.Name(), "."):
			return map[bool]error{true: filepath.SkipDir}[d.IsDir()]
		case d.IsDir():
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("%s is not a regular file; snapshots and tasks hold plain files only", p)
		}
		files[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	return files, err
}

// tarOf is the deterministic tar of a folder: sorted paths, zero mtimes,
// fixed modes, no owners. Its sha256 names a snapshot or a task.
func tarOf(dir string) ([]byte, error) {
	files, err := readTree(dir)
	if err == nil && len(files) == 0 {
		err = errors.New("no files")
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range sortedKeys(files) {
		tw.WriteHeader(&tar.Header{Name: f, Mode: 0o644, Size: int64(len(files[f])), Typeflag: tar.TypeReg, Format: tar.FormatPAX})
		tw.Write(files[f])
	}
	return buf.Bytes(), errors.Join(err, tw.Close())
}

func tarHash(dir string) (string, error) {
	b, err := tarOf(dir)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), err
}

// Snapshot stores dir's tar and returns its sha256, the harness hash.
func (a *Anchor) Snapshot(dir string) (string, error) {
	b, err := tarOf(dir)
	hash, _ := tarHash(dir)
	if err == nil {
		err = writeAtomic(a.path("snapshots", hash+".tar"), b)
	}
	if err != nil {
		return "", fmt.Errorf("snapshot %s: %w; point it at the harness folder", dir, err)
	}
	return hash, nil
}

// writeAtomic writes a file that is either absent or complete.
func writeAtomic(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(b)
	if err = errors.Join(err, f.Sync(), f.Close()); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// resolveHarness turns a folder, a stored snapshot's hash or "head" into a
// stored snapshot's hash.
func (a *Anchor) resolveHarness(arg string) (string, error) {
	if st, err := os.Stat(arg); err == nil && st.IsDir() {
		return a.Snapshot(arg)
	} else if arg == "head" {
		h, err := a.head()
		return h.Hash, err
	} else if _, err := os.Stat(a.path("snapshots", arg+".tar")); err != nil || !filepath.IsLocal(arg) {
		return "", fmt.Errorf("--harness %q is neither a folder nor a stored snapshot hash; pass the harness folder or a hash from anchor log --json", arg)
	}
	return arg, nil
}

// readSnapshot returns the files of a stored snapshot.
func (a *Anchor) readSnapshot(hash string) (map[string][]byte, error) {
	b, err := os.ReadFile(a.path("snapshots", hash+".tar"))
	files := map[string][]byte{}
	for tr := tar.NewReader(bytes.NewReader(b)); err == nil; {
		var hdr *tar.Header
		if hdr, err = tr.Next(); err == io.EOF {
			return files, nil
		} else if err == nil && (hdr.Typeflag != tar.TypeReg || !filepath.IsLocal(hdr.Name)) {
			err = fmt.Errorf("bad entry %q", hdr.Name)
		} else if err == nil {
			files[hdr.Name], err = io.ReadAll(tr)
		}
	}
	return nil, fmt.Errorf("read snapshot %s: %w", hash, err)
}

// extract writes snapshot hash into dst.
func (a *Anchor) extract(hash, dst string) error {
	files, err := a.readSnapshot(hash)
	for name, b := range files {
		p := filepath.Join(dst, name)
		if err = errors.Join(os.MkdirAll(filepath.Dir(p), 0o755), os.WriteFile(p, b, 0o644)); err != nil {
			break
		}
	}
	return err
}

// refreshWorkingCopy makes dir hold exactly snapshot hash. If it fails
// half way the ledger is still right, and a rollback to the head redoes it.
func (a *Anchor) refreshWorkingCopy(hash, dir string) error {
	if dir == "" {
		return nil
	} else if err := errors.Join(os.RemoveAll(dir), a.extract(hash, dir)); err != nil {
		return fmt.Errorf("refresh %s: %w; the ledger is right: run anchor rollback with the head generation to retry", dir, err)
	}
	return nil
}

var manifestList, quoted, comment = regexp.MustCompile(`editable\s*=\s*\[([^\]]*)\]`), regexp.MustCompile(`"([^"\n]+)"`), regexp.MustCompile(`#.*`)

// manifest reads the editable list of harness/manifest.toml: the quoted
// strings inside editable = [ ... ], comments stripped. Nothing else.
func manifest(files map[string][]byte) (out []string) {
	if m := manifestList.FindSubmatch(comment.ReplaceAll(files["manifest.toml"], nil)); m != nil {
		for _, q := range quoted.FindAllSubmatch(m[1], -1) {
			out = append(out, string(q[1]))
		}
	}
	return out
}

// copyTree copies the regular files and folders of src into dst. It never
// follows symlinks: they are skipped. Special files are refused, and so is
// a tree larger than limit bytes.
func copyTree(src, dst string, limit int64) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case err != nil:
			return err
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("refusing special file %s", rel)
		}
		info, err := d.Info()
		if limit -= info.Size(); err == nil && limit < 0 {
			err = fmt.Errorf("tree %s is too large", src)
		}
		in, oerr := os.Open(p)
		if err = errors.Join(err, oerr); err != nil {
			return err
		}
		defer in.Close()
		os.Remove(target) // an overlay replaces; O_EXCL below never follows a link
		out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, info.Mode().Perm()|0o600)
		if err == nil {
			_, err = io.Copy(out, in)
			err = errors.Join(err, out.Close())
		}
		return err
	})
}

// build compiles a snapshot offline, once per hash. A snapshot that does not
// compile yields the compiler's message as an error, also kept.
func (a *Anchor) build(hash string) (string, error) {
	a.buildMu.Lock()
	defer a.buildMu.Unlock()
	bin, _ := filepath.Abs(a.path("builds", hash, "harness"))
	errFile := a.path("builds", hash, "error.txt")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	} else if b, err := os.ReadFile(errFile); err == nil {
		return "", errors.New(string(b))
	}
	src, err := os.MkdirTemp(a.path("tmp"), "build-")
	defer os.RemoveAll(src)
	cache, _ := filepath.Abs(a.path("cache", "build"))
	var out []byte
	if err = errors.Join(err, a.extract(hash, src)); err == nil {
		out, err = goCmd(src, cache, "build", "-trimpath", "-o", bin+".tmp", ".")
	}
	if _, ok := err.(*exec.ExitError); ok {
		msg := "harness does not build: " + strings.TrimSpace(string(out))
		return "", errors.Join(writeAtomic(errFile, []byte(msg)), errors.New(msg))
	} else if err != nil {
		return "", fmt.Errorf("build harness: %w; is Go installed?", err)
	}
	return bin, os.Rename(bin+".tmp", bin)
}

// goCmd runs the anchor's own go command, offline.
func goCmd(dir, cache string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off", "GOFLAGS=-mod=mod", "GOCACHE="+cache)
	return cmd.CombinedOutput()
}

// warmSource is compiled once into a trusted build cache of which every
// sandbox gets a private copy: no test run rebuilds the standard library,
// and no run can poison another's cache.
const warmSource = `package warm
import (_ "bufio"; _ "bytes"; _ "container/heap"; _ "encoding/json"; _ "errors"; _ "fmt"; _ "io"; _ "math"; _ "os"
	_ "regexp"; _ "sort"; _ "strconv"; _ "strings"; _ "sync"; _ "time"; _ "unicode"; "testing")
func TestWarm(t *testing.T) {}
`

func (a *Anchor) cacheCopy(tmp, name string) (string, error) {
	a.warmMu.Lock()
	warm, _ := filepath.Abs(a.path("cache", "warm"))
	_, err := os.Stat(filepath.Join(warm, "ready"))
	if err != nil {
		src, _ := os.MkdirTemp(a.path("tmp"), "warm-")
		defer os.RemoveAll(src)
		os.WriteFile(filepath.Join(src, "go.mod"), []byte("module warm\n"), 0o644)
		os.WriteFile(filepath.Join(src, "warm_test.go"), []byte(warmSource), 0o644)
		if out, gerr := goCmd(src, warm, "test", "-count=1", "."); gerr != nil {
			err = fmt.Errorf("warm the build cache: %v: %s", gerr, out)
		} else {
			err = os.WriteFile(filepath.Join(warm, "ready"), nil, 0o644)
		}
	}
	a.warmMu.Unlock()
	dst := filepath.Join(tmp, name)
	return dst, errors.Join(err, copyTree(warm, dst, 4<<30))
}
