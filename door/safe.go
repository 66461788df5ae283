package door

import (
	"io"
	"os"
	"path/filepath"
	"ratchet/internal/datafile"
	"strconv"
	"sync"
	"syscall"
)

// Caps on what the door reads from files others wrote.
const (
	maxProjectFile = 1 << 20  // package.json, Makefile: DetectTest's reads
	maxTrace       = 64 << 20 // an agent's trace
)

// copyTrace copies the agent's trace (a regular file, at most maxTrace
// bytes) to dst, readable by the user only. It never renames: what the agent
// left at src may be a link to a host file.
func copyTrace(src, dst string) error {
	b, _, rerr := datafile.Read(src, maxTrace)
	if err := os.WriteFile(dst, b, 0o600); err != nil {
		return err
	}
	return rerr
}

// syncWriter serialises writes to w: progress comes from the trace tail and
// from Ask, and a front door's stream (an http.ResponseWriter) is not safe
// for concurrent use.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// projectDir is a project held open from validation on: every later read,
// write-back and test goes through Path (its /proc/self/fd name), so a
// project folder swapped for a link while the agent works is never followed.
type projectDir struct {
	f *os.File
}

// openProject opens the folder real (already resolved) without following a
// link in its last part.
func openProject(real string) (*projectDir, error) {
	f, err := os.OpenFile(real, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	return &projectDir{f: f}, nil
}

// Path names the held folder; it stays valid while the door holds it, for
// this process and for children started with it as their folder.
func (p *projectDir) Path() string {
	return "/proc/self/fd/" + strconv.Itoa(int(p.f.Fd())) + "/."
}

// Real is where the held folder is now.
func (p *projectDir) Real() (string, error) {
	return os.Readlink("/proc/self/fd/" + strconv.Itoa(int(p.f.Fd())))
}

// Root opens the held folder as an os.Root.
func (p *projectDir) Root() (*os.Root, error) { return os.OpenRoot(p.Path()) }

func (p *projectDir) Close() error { return p.f.Close() }

// overlaps reports whether a and b (absolute, clean) are the same folder or
// one lies in the other.
func overlaps(a, b string) bool { return within(a, b) || within(b, a) }

// realPath is path made absolute with its links resolved.
func realPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	// A folder not made yet (the home before the first request) is its
	// nearest existing parent, resolved, and the rest of the path.
	for dir, rest := abs, ""; ; {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return abs
		}
		dir, rest = parent, filepath.Join(filepath.Base(dir), rest)
	}
}
