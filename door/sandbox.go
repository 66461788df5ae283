package door

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"ratchet/anchor"
)

// sandboxed runs the harness under bubblewrap on a copy of the project and
// writes the agent's changes back (see writeBack). The build cache is a
// fresh copy of a trusted one, private to this run.
func (d *Door) sandboxed(ctx context.Context, bin, work string, rec *Record, progress io.Writer) error {
	box := filepath.Join(work, "box")
	before, err := anchor.ReadTree(rec.Project, false)
	if err != nil {
		return err
	}
	if err := anchor.WriteTree(filepath.Join(box, "task"), before); err != nil {
		return err
	}
	cache, err := d.freshCache(filepath.Join(work, "cache"))
	if err != nil {
		return err
	}
	env := d.modelEnv()
	b := anchor.Box{Work: box, Cache: cache, Timeout: d.cfg.Timeout, Harness: bin, Socket: filepath.Join(work, "model.sock"),
		Args: []string{"/opt/harness", "/work"},
		Env:  []string{"MODEL_API", getenv(env, "MODEL_API"), "MODEL_NAME", getenv(env, "MODEL_NAME"), "MODEL_OPTIONS", getenv(env, "MODEL_OPTIONS")}}
	code, out, timedOut, err := b.Run(ctx)
	after, rerr := anchor.ReadTree(filepath.Join(box, "task"), false)
	if rerr == nil {
		rec.Withheld, rerr = writeBack(rec.Project, before, after)
		rec.Withheld = append(rec.Withheld, links(filepath.Join(box, "task"))...)
	}
	if len(rec.Withheld) > 0 {
		fmt.Fprintf(progress, "not written back (dot-paths and links never leave the sandbox): %s\n", strings.Join(rec.Withheld, ", "))
	}
	switch {
	case err != nil:
		return err
	case timedOut:
		return fmt.Errorf("the agent ran out of time (%s)", d.cfg.Timeout)
	case code != 0:
		return fmt.Errorf("harness exited with status %d: %s", code, strings.TrimSpace(string(out[max(0, len(out)-300):])))
	}
	return rerr
}

// boxTests runs the test command in a sandbox of its own on a copy of the
// project, with a private build cache: what the agent wrote runs there,
// never on the host.
func (d *Door) boxTests(ctx context.Context, project, command string) string {
	work, err := os.MkdirTemp(filepath.Join(d.cfg.Home, "tmp"), "tests-")
	if err != nil {
		return "fail (" + err.Error() + ")"
	}
	defer os.RemoveAll(work)
	files, err := anchor.ReadTree(project, false)
	if err == nil {
		err = anchor.WriteTree(filepath.Join(work, "box", "task"), files)
	}
	cache, cerr := d.freshCache(filepath.Join(work, "cache"))
	if err = errors.Join(err, cerr); err != nil {
		return "fail (" + err.Error() + ")"
	}
	b := anchor.Box{Work: filepath.Join(work, "box"), Cache: cache, Dir: "/work/task", Timeout: testTimeout, Args: []string{"sh", "-c", command}}
	code, _, timedOut, err := b.Run(ctx)
	switch {
	case err != nil:
		return "fail (" + err.Error() + ")"
	case timedOut:
		return fmt.Sprintf("fail (timed out after %s)", testTimeout)
	case code != 0:
		return fmt.Sprintf("fail (exit status %d)", code)
	}
	return "pass"
}

// warmSource is compiled on the host into the trusted build cache that
// every sandbox gets a private copy of, so that no test run rebuilds the
// standard library and no run can poison another's cache.
const warmSource = `package warm

import (
	_ "bufio"
	_ "bytes"
	_ "encoding/json"
	_ "errors"
	_ "fmt"
	_ "io"
	_ "os"
	_ "path/filepath"
	_ "regexp"
	_ "sort"
	_ "strconv"
	_ "strings"
	_ "sync"
	"testing"
	_ "time"
)

func TestWarm(t *testing.T) {}
`

var warmMu sync.Mutex

// warmCache returns the trusted build cache in RATCHET_HOME/cache/warm,
// building it on first use from warmSource alone.
func (d *Door) warmCache() (string, error) {
	warmMu.Lock()
	defer warmMu.Unlock()
	warm, _ := filepath.Abs(filepath.Join(d.cfg.Home, "cache", "warm"))
	if _, err := os.Stat(filepath.Join(warm, "ready")); err == nil {
		return warm, nil
	}
	src, err := os.MkdirTemp(filepath.Join(d.cfg.Home, "tmp"), "warm-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(src)
	if err := anchor.WriteTree(filepath.Join(src, "mod"), map[string][]byte{"go.mod": []byte("module warm\n"), "warm_test.go": []byte(warmSource)}); err != nil {
		return "", err
	}
	cmd := exec.Command("go", "test", "-count=1", ".")
	cmd.Dir = filepath.Join(src, "mod")
	// The settings the sandbox uses (anchor.Box), so that its builds hit.
	cmd.Env = append(HostEnv(d.cfg.Env, d.key()), "GOCACHE="+filepath.Join(src, "cache"), "CGO_ENABLED=0", "GOPROXY=off",
		"GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOWORK=off", "GOTELEMETRY=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("warm the sandbox's build cache: %v: %s", err, strings.TrimSpace(string(out)))
	}
	if err := os.WriteFile(filepath.Join(src, "cache", "ready"), nil, 0o644); err != nil {
		return "", err
	}
	os.MkdirAll(filepath.Dir(warm), 0o755)
	os.RemoveAll(warm) // a half-made one from an earlier crash (no ready file)
	if err := os.Rename(filepath.Join(src, "cache"), warm); err != nil {
		return "", fmt.Errorf("keep the warm build cache: %w", err)
	}
	return warm, nil
}

// freshCache makes dst a private copy of the warm build cache.
func (d *Door) freshCache(dst string) (string, error) {
	warm, err := d.warmCache()
	if err != nil {
		return "", err
	}
	files, err := anchor.ReadTree(warm, false)
	if err != nil {
		return "", fmt.Errorf("copy the warm build cache: %w", err)
	}
	return dst, anchor.WriteTree(dst, files)
}

// writeBack applies the agent's changes to the project through os.Root and
// returns the changed paths it withheld: anything under a dot-path (.git/,
// .github/, .env ...) and anything reached through a link in the project.
// A hook or a git config written in the sandbox never reaches the project.
func writeBack(project string, before, after map[string][]byte) (withheld []string, err error) {
	root, err := os.OpenRoot(project)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	var errs []error
	for _, name := range changed(before, after) {
		if dotPath(name) || throughLink(root, name) {
			withheld = append(withheld, name)
			continue
		}
		b, ok := after[name]
		switch {
		case !ok:
			errs = append(errs, root.Remove(name))
		case root.MkdirAll(filepath.Dir(name), 0o755) != nil:
			errs = append(errs, fmt.Errorf("write back %s: cannot create its folder inside the project", name))
		default:
			errs = append(errs, root.WriteFile(name, b, 0o644))
		}
	}
	return withheld, errors.Join(errs...)
}

// dotPath reports whether a slash-separated path has a part starting with a dot.
func dotPath(name string) bool {
	for part := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}

// throughLink reports whether name, or a folder on the way to it, is a
// link in the project (a link that stays inside could still lead to .git).
func throughLink(root *os.Root, name string) bool {
	parts := strings.Split(name, "/")
	for i := range parts {
		st, err := root.Lstat(strings.Join(parts[:i+1], "/"))
		if err != nil {
			return false // does not exist yet: nothing further can be a link
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			return true
		}
	}
	return false
}

// links lists the links the agent made in its tree: ReadTree skips them, and
// they are never written back, so the record says so.
func links(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && e.Type()&fs.ModeSymlink != 0 {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}
