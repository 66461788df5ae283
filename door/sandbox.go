package door

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"ratchet/anchor"
	"ratchet/internal/show"
)

// sandboxed runs the harness under bubblewrap on a copy of the project and
// writes the agent's changes back (see writeBack). Every sandbox sees the
// anchor's trusted warm build cache through a private layer of its own, so
// no request can poison another's builds.
func (d *Door) sandboxed(ctx context.Context, bin, work string, proj *projectDir, rec *Record, progress io.Writer) error {
	box := filepath.Join(work, "box")
	before, err := anchor.ReadTree(proj.Path(), false)
	if err != nil {
		return err
	}
	if err := anchor.WriteTree(filepath.Join(box, "task"), before); err != nil {
		return err
	}
	cache, err := anchor.WarmCache()
	if err != nil {
		return err
	}
	env := d.modelEnv()
	b := anchor.Box{Work: box, Cache: cache, Timeout: d.cfg.Timeout, Harness: bin, Socket: filepath.Join(work, "model.sock"),
		Args: []string{"/opt/harness", "/work"},
		Env: append(goFlags(filepath.Join(box, "task")),
			"MODEL_API", getenv(env, "MODEL_API"), "MODEL_NAME", getenv(env, "MODEL_NAME"), "MODEL_OPTIONS", getenv(env, "MODEL_OPTIONS"))}
	code, out, timedOut, err := b.Run(ctx)
	after, rerr := anchor.ReadTree(filepath.Join(box, "task"), false)
	if rerr == nil {
		rerr = d.recheck(proj) // the project may have been swapped while the agent worked
	}
	if rerr == nil {
		var root *os.Root
		if root, rerr = proj.Root(); rerr == nil {
			rec.Withheld, rerr = writeBackRoot(root, before, after)
			root.Close() // every file written through it is closed (and its error kept) already
		}
		rec.Withheld = append(rec.Withheld, links(filepath.Join(box, "task"))...)
	}
	if len(rec.Withheld) > 0 {
		fmt.Fprintf(progress, "not written back (dot-paths and links never leave the sandbox): %s\n", show.Line(strings.Join(rec.Withheld, ", "), 2000))
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
// project, over a private layer of the warm build cache: what the agent
// wrote runs there, never on the host.
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
	cache, cerr := anchor.WarmCache()
	if err = errors.Join(err, cerr); err != nil {
		return "fail (" + err.Error() + ")"
	}
	b := anchor.Box{Work: filepath.Join(work, "box"), Cache: cache, Dir: "/work/task", Timeout: testTimeout, Args: []string{"sh", "-c", command},
		Env: goFlags(filepath.Join(work, "box", "task"))}
	code, out, timedOut, err := b.Run(ctx)
	switch {
	case err != nil:
		return "fail (" + err.Error() + ")"
	case timedOut:
		return fmt.Sprintf("fail (timed out after %s)", testTimeout)
	case code != 0:
		return fmt.Sprintf("fail (exit status %d)%s", code, failCause(out))
	}
	return "pass"
}

// noNetwork is how failCause says that the tests need modules the sandbox
// cannot fetch: a request whose tests fail so cannot be served there.
const noNetwork = "the sandbox has no network"

// failCause says why a test run in the sandbox failed: a module the
// sandbox could not fetch, with what to do, else the last line of the
// output that is more than go test's FAIL summary.
func failCause(out []byte) string {
	for line := range strings.SplitSeq(string(out), "\n") {
		if strings.Contains(line, "GOPROXY=off") || strings.Contains(line, "missing go.sum entry") {
			return ": " + Clip(line, 200) + " (" + noNetwork + ": vendor the modules with go mod vendor, or run without --sandbox)"
		}
	}
	lines := strings.Split(string(out), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l != "" && l != "FAIL" && !strings.HasPrefix(l, "FAIL\t") && !strings.HasPrefix(l, "ok ") && !strings.HasPrefix(l, "?") {
			return ": " + Clip(l, 200)
		}
	}
	return ""
}

// goFlags keeps go from changing go.mod or go.sum on its own in the sandbox
// (the anchor's -mod=mod adds a missing go line, raising the project's
// minimum Go): only what the agent wrote goes back. A vendored project
// builds from vendor/.
func goFlags(tree string) []string {
	if _, err := os.Stat(filepath.Join(tree, "vendor", "modules.txt")); err == nil {
		return []string{"GOFLAGS", "-mod=vendor"}
	}
	return []string{"GOFLAGS", "-mod=readonly"}
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
	return writeBackRoot(root, before, after)
}

// writeBackRoot is writeBack through an open root.
func writeBackRoot(root *os.Root, before, after map[string][]byte) (withheld []string, err error) {
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
			errs = append(errs, replace(root, name, b))
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

// replace puts b at name by writing a new file beside it and renaming it
// over the name: a file hard-linked out of the project (a pnpm store, a
// `cp -al` backup) is left alone, never written through. The new file keeps
// the old one's permissions.
func replace(root *os.Root, name string, b []byte) error {
	perm := fs.FileMode(0o644)
	if st, err := root.Lstat(name); err == nil && st.Mode().IsRegular() {
		perm = st.Mode().Perm()
	}
	tmp := path.Join(path.Dir(name), ".ratchet-"+newID())
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("write back %s: %w", name, err)
	}
	_, werr := f.Write(b)
	if err := errors.Join(werr, f.Chmod(perm), f.Close()); err != nil {
		root.Remove(tmp)
		return fmt.Errorf("write back %s: %w", name, err)
	}
	if err := root.Rename(tmp, name); err != nil {
		root.Remove(tmp)
		return fmt.Errorf("write back %s: %w", name, err)
	}
	return nil
}
