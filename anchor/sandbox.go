package anchor

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Box is one bubblewrap sandbox: Work is bound read-write at /work and is
// the only writable tree besides a sized private /tmp and a private
// writable layer over the trusted build cache Cache, at /cache. Nothing
// else of the host is visible but the system directories and the Go
// toolchain, read-only. There is no network. Memory and processes are
// capped for the sandbox as a whole through cgroups.
type Box struct {
	Work, Cache, Dir string        // host folders for /work and the warm cache; working folder inside
	Harness, Socket  string        // optional: the harness binary and the model socket
	Opt              string        // optional: test binaries and -exec program, read-only at /opt/score
	Env, Args        []string      // Env: name, value pairs added to the allowlist
	Timeout          time.Duration // wall clock for the whole process tree
	Memory           int64         // bytes for the whole sandbox; 0 means DefaultMemory
	SharedCache      bool          // Cache is bound itself, writable: only for the compiler's own cache
	Output           int           // bytes of output kept; 0 means 1 MiB
}

// Limits on what one sandbox may use.
const (
	maxOutput     = 1 << 20   // bytes of output kept
	maxFile       = 256 << 20 // bytes of one file
	maxProcs      = 512
	tmpSize       = 512 << 20 // the sandbox's /tmp
	DefaultMemory = 4 << 30   // ANCHOR_MEMORY
)

// runDisk bounds everything one run writes on the host (its /work, the
// scoring tree and the private cache layers); tests lower it.
var runDisk = 1 << 30

// goEnv is the Go toolchain's root and version.
var goEnv = sync.OnceValues(func() (string, string) {
	out, err := exec.Command("go", "env", "GOROOT", "GOVERSION").Output()
	lines := strings.Fields(string(out))
	if err != nil || len(lines) != 2 {
		return "/usr/local/go", "unknown"
	}
	return lines[0], lines[1]
})

// rustRoot is rustup's stable toolchain (its cargo and rustc in bin/),
// found without running rustup, which would write a home of its own where
// HOME points; "" when there is none, and a system cargo (Debian's) serves.
var rustRoot = sync.OnceValue(func() string {
	home, _ := os.UserHomeDir()
	rustup := cmp.Or(os.Getenv("RUSTUP_HOME"), filepath.Join(home, ".rustup"))
	roots, _ := filepath.Glob(filepath.Join(rustup, "toolchains", "stable-*"))
	if len(roots) == 0 {
		return ""
	}
	return roots[0]
})

func (b *Box) args() []string {
	gr, _ := goEnv()
	a := []string{"--unshare-all", "--die-with-parent", "--new-session", "--clearenv", "--cap-drop", "ALL",
		"--json-status-fd", "3", "--proc", "/proc", "--dev", "/dev",
		"--size", strconv.Itoa(tmpSize), "--tmpfs", "/tmp", "--ro-bind", gr, gr, "--bind", b.Work, "/work"}
	system := []string{"/usr/bin", "/usr/lib", "/usr/lib64", "/usr/libexec", "/usr/share/zoneinfo",
		"/etc/alternatives", "/usr/include", "/usr/share/java", "/usr/share/cargo"}
	java, _ := filepath.Glob("/etc/java-*") // the JDK's security and logging settings
	for _, d := range append(system, java...) {
		a = append(a, "--ro-bind-try", d, d)
	}
	for _, l := range []string{"bin", "lib", "lib64", "sbin"} {
		a = append(a, "--symlink", "usr/"+l, "/"+l)
	}
	if rust := rustRoot(); rust != "" { // at a path of its own: nothing of a home shows
		a = append(a, "--ro-bind", rust, "/opt/rust")
	}
	if b.Opt != "" {
		a = append(a, "--ro-bind", b.Opt, "/opt/score")
	}
	if b.Harness != "" {
		a = append(a, "--ro-bind", b.Harness, "/opt/harness", "--bind", b.Socket, "/run/model.sock")
		a = append(a, "--setenv", "MODEL_SOCKET", "/run/model.sock")
	}
	env := []string{"PATH", gr + "/bin:/opt/rust/bin:/usr/bin:/bin", "HOME", "/tmp", "TMPDIR", "/tmp",
		"LANG", "C.UTF-8",
		"GOCACHE", "/cache", "GOPATH", "/tmp/go", "GOPROXY", "off", "GOTOOLCHAIN", "local", "GOTELEMETRY", "off",
		"CGO_ENABLED", "0", "GOFLAGS", "-mod=mod"}
	env = append(env, b.Env...)
	for i := 0; i+1 < len(env); i += 2 {
		a = append(a, "--setenv", env[i], env[i+1])
	}
	a = append(a, "--remount-ro", "/", "--chdir", cmp.Or(b.Dir, "/work"), "--")
	return append(a, b.Args...)
}

// Run starts the sandbox and waits for it. It returns the exit status, the
// combined output (capped) and whether the wall clock ran out. An error
// means the sandbox itself could not start: an infrastructure failure, not
// the code's. Killing bubblewrap ends its pid namespace, so no process of
// the sandbox survives.
func (b *Box) Run(ctx context.Context) (code int, out []byte, timedOut bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, b.Timeout)
	defer cancel()
	scratch, err := os.MkdirTemp(filepath.Dir(b.Work), "box-")
	if err != nil {
		return -1, nil, false, fmt.Errorf("start sandbox: %w", err)
	}
	defer os.RemoveAll(scratch)
	cache := b.Cache
	if !b.SharedCache {
		layered, unmount, err := layer(b.Cache, scratch)
		if err != nil {
			return -1, nil, false, fmt.Errorf("start sandbox: build cache: %w", err)
		}
		defer unmount()
		cache = layered
	}
	memory := strconv.FormatInt(cmp.Or(b.Memory, DefaultMemory), 10)
	groups := []string{
		cgroup("pids", "pids.max", strconv.Itoa(maxProcs)),
		cgroup("memory", "memory.limit_in_bytes", memory, "memory.memsw.limit_in_bytes", memory),
	}
	defer removeCgroups(groups)
	status, w, err := os.Pipe()
	if err != nil {
		return -1, nil, false, fmt.Errorf("start sandbox: %w", err)
	}
	defer status.Close()
	// The shell joins the cgroups before exec, so every descendant is in them.
	join := `for d in $1; do echo $$ > "$d/cgroup.procs" || exit 125; done; shift; exec "$@"`
	argv := append([]string{"-c", join, "sh", strings.Join(groups, " "), "prlimit",
		"--fsize=" + strconv.Itoa(maxFile), "--nofile=4096", "--core=0", "bwrap", "--bind", cache, "/cache"},
		b.args()...)
	cmd := exec.CommandContext(ctx, "sh", argv...)
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	cmd.ExtraFiles = []*os.File{w}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	buf := &capped{limit: cmp.Or(b.Output, maxOutput)}
	cmd.Stdout, cmd.Stderr = buf, buf
	err = cmd.Start()
	w.Close() // our copy of the child's end; the child holds its own
	if err != nil {
		return -1, nil, false, fmt.Errorf("start sandbox: %w", err)
	}
	cmd.Wait()
	started, _ := io.ReadAll(status)
	if !bytes.Contains(started, []byte(`"child-pid"`)) {
		tail := strings.TrimSpace(string(buf.b[max(0, len(buf.b)-300):]))
		return -1, buf.b, false, fmt.Errorf("the sandbox did not start: %s; "+
			"is bubblewrap installed and working (apt-get install bubblewrap)?", tail)
	}
	return cmd.ProcessState.ExitCode(), buf.b, errors.Is(ctx.Err(), context.DeadlineExceeded), nil
}

// capped keeps the first limit bytes written to it. exec calls Write from
// one goroutine when stdout and stderr are the same writer.
type capped struct {
	b     []byte
	limit int
}

func (c *capped) Write(p []byte) (int, error) {
	room := max(c.limit-len(c.b), 0)
	c.b = append(c.b, p[:min(room, len(p))]...)
	return len(p), nil
}

// cgroup makes a cgroup-v1 group under controller with the given file,
// value pairs written in order, and returns its folder. Where the machine
// does not let us, it says so once and returns "".
func cgroup(controller string, limits ...string) string {
	name := fmt.Sprintf("ratchet-%d-%s", os.Getpid(), strings.ToLower(rand.Text()[:8]))
	dir := filepath.Join("/sys/fs/cgroup", controller, name)
	err := os.Mkdir(dir, 0o755)
	for i := 0; err == nil && i+1 < len(limits); i += 2 {
		err = os.WriteFile(filepath.Join(dir, limits[i]), []byte(limits[i+1]), 0o644)
		if errors.Is(err, os.ErrNotExist) { // no swap accounting: the memory limit alone holds
			err = nil
		}
	}
	if err != nil {
		os.Remove(dir) // empty: the error that made it useless is the one returned
		warn(controller, fmt.Sprintf("no %s cgroup (%v); sandboxes run without a whole-sandbox %[1]s cap",
			controller, err))
		return ""
	}
	return dir
}

// removeCgroups removes the groups, killing anything left in them.
func removeCgroups(dirs []string) {
	for _, dir := range dirs {
		for i := 0; dir != "" && os.Remove(dir) != nil && i < 200; i++ {
			procs, _ := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
			for _, pid := range strings.Fields(string(procs)) {
				n, _ := strconv.Atoi(pid)
				syscall.Kill(n, syscall.SIGKILL)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

var warned sync.Map

// warn tells the operator once per process about a limit it cannot apply.
func warn(key, msg string) {
	if _, seen := warned.LoadOrStore(key, true); !seen {
		fmt.Fprintln(os.Stderr, "anchor: warning:", msg)
	}
}

// bound mounts a tmpfs of size bytes on dir, so that everything a run
// writes there counts against that size (and against the memory cgroup of
// whoever writes it), and against an inode for each 4 KiB. Where mounting
// is not allowed it says so once and leaves dir a plain folder.
func bound(dir string, size int) func() {
	opts := "size=" + strconv.Itoa(size) + ",nr_inodes=" + strconv.Itoa(size/4096)
	if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, opts); err != nil {
		warn("disk", fmt.Sprintf("cannot mount a sized tmpfs for runs (%v); a run's files are capped per file only",
			err))
		return func() {}
	}
	return func() { syscall.Unmount(dir, syscall.MNT_DETACH) }
}

// layer gives a sandbox a private writable build cache over the trusted
// warm one: an overlay where the machine allows it, else a copy.
func layer(warm, scratch string) (string, func(), error) {
	merged := filepath.Join(scratch, "cache")
	upper, work := filepath.Join(scratch, "upper"), filepath.Join(scratch, "ovl")
	for _, d := range []string{merged, upper, work} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return "", nil, err
		}
	}
	if warm == "" {
		return merged, func() {}, nil
	}
	opts := "lowerdir=" + warm + ",upperdir=" + upper + ",workdir=" + work
	if syscall.Mount("overlay", merged, "overlay", 0, opts) == nil {
		return merged, func() { syscall.Unmount(merged, syscall.MNT_DETACH) }, nil
	}
	files, err := ReadTree(warm, true) // the anchor's own cache: read as a snapshot is, not as an agent's tree
	if err != nil {
		return "", nil, err
	}
	return merged, func() {}, WriteTree(merged, files)
}

// warmSource is compiled once per machine and Go version into a trusted
// build cache that every sandbox sees through a private layer: no test run
// rebuilds the standard library, and no run can poison another's cache.
//
//go:embed warm_test.go.txt
var warmSource []byte

// cacheDir is the machine's Ratchet cache: the warm build cache and the
// host build cache of harness snapshots, shared by every ledger.
func cacheDir(elem ...string) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(append([]string{dir, "ratchet"}, elem...)...)
}

// WarmCache returns the machine's warm build cache for the Go toolchain on
// PATH, building it the first time. Concurrent builders race harmlessly:
// each builds its own and the first rename wins.
func WarmCache() (string, error) {
	_, version := goEnv()
	// new packages or tools, or a new way of keeping the cache: a new cache
	sum := sha256.Sum256(append([]byte("test2json dated\n"), warmSource...))
	dir := cacheDir("warm-" + version + "-" + hex.EncodeToString(sum[:6]))
	if _, err := os.Stat(dir); err == nil {
		return dir, nil
	}
	tmp := dir + ".tmp-" + rand.Text()
	defer os.RemoveAll(tmp)
	src := filepath.Join(tmp, "src")
	tree := map[string][]byte{"go.mod": []byte("module warm\n"), "warm_test.go": warmSource}
	if err := WriteTree(src, tree); err != nil {
		return "", fmt.Errorf("warm the build cache: %w", err)
	}
	// The anchor's own source, built on the host, offline, and test2json,
	// which scoring runs (compileTests): no scoring builds it again.
	cmd := exec.Command("sh", "-c", "go test -count=1 . && go tool -n test2json")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off",
		"GOFLAGS=-mod=readonly", "GOCACHE="+filepath.Join(tmp, "cache"))
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("warm the build cache: %v: %s", err, out)
	}
	// go refreshes the time of a cache entry used after an hour, and in a
	// sandbox's overlay that copies the entry up, scoring after scoring (a
	// fifth of a scoring's time): entries dated ahead are never refreshed.
	ahead := time.Now().AddDate(100, 0, 0)
	err := filepath.WalkDir(filepath.Join(tmp, "cache"), func(p string, _ fs.DirEntry, err error) error {
		return errors.Join(err, os.Chtimes(p, ahead, ahead))
	})
	if err != nil {
		return "", fmt.Errorf("warm the build cache: %w", err)
	}
	if err := os.Rename(filepath.Join(tmp, "cache"), dir); err != nil && !errors.Is(err, os.ErrExist) {
		if _, serr := os.Stat(dir); serr != nil {
			return "", fmt.Errorf("warm the build cache: %w", err)
		}
	}
	return dir, nil
}
