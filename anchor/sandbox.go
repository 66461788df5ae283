package anchor

import (
	"context"
	"errors"
	"fmt"
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
// the only writable tree besides a private /tmp and the build cache at
// /cache. Nothing else of the host is visible but the system directories
// and the Go toolchain, read-only. There is no network.
type Box struct {
	Work    string            // host directory shown as /work
	Cache   string            // host directory shown as /cache (GOCACHE); optional
	RO      map[string]string // extra read-only binds: sandbox path -> host path
	RW      map[string]string // extra read-write binds (the model socket)
	Env     map[string]string // added to the allowlisted environment
	Dir     string            // working directory inside
	Timeout time.Duration     // wall clock for the whole process tree
	Args    []string
}

// Limits on what a sandbox may use.
const (
	maxOutput  = 1 << 20
	maxFile    = 256 << 20
	maxMemory  = 8 << 30
	maxProcs   = 512
	cgroupRoot = "/sys/fs/cgroup/pids"
)

var goroot = sync.OnceValue(func() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "/usr/local/go"
	}
	return strings.TrimSpace(string(out))
})

// args builds the bwrap command line.
func (b *Box) args() []string {
	a := []string{"--unshare-all", "--die-with-parent", "--new-session", "--clearenv", "--cap-drop", "ALL",
		"--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"}
	for _, d := range []string{"/usr/bin", "/usr/lib", "/usr/lib64", "/usr/libexec", "/usr/share/zoneinfo", "/etc/alternatives"} {
		a = append(a, "--ro-bind-try", d, d)
	}
	for _, l := range []string{"bin", "lib", "lib64", "sbin"} {
		a = append(a, "--symlink", "usr/"+l, "/"+l)
	}
	gr := goroot()
	a = append(a, "--ro-bind", gr, gr, "--bind", b.Work, "/work")
	if b.Cache != "" {
		a = append(a, "--bind", b.Cache, "/cache")
	}
	for dst, src := range b.RO {
		a = append(a, "--ro-bind", src, dst)
	}
	for dst, src := range b.RW {
		a = append(a, "--bind", src, dst)
	}
	env := map[string]string{"PATH": gr + "/bin:/usr/bin:/bin", "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8",
		"GOCACHE": "/cache", "GOPATH": "/tmp/go", "GOPROXY": "off", "GOTOOLCHAIN": "local", "GOTELEMETRY": "off",
		"CGO_ENABLED": "0", "GOFLAGS": "-mod=mod"}
	for k, v := range b.Env {
		env[k] = v
	}
	for k, v := range env {
		a = append(a, "--setenv", k, v)
	}
	a = append(a, "--remount-ro", "/")
	dir := b.Dir
	if dir == "" {
		dir = "/work"
	}
	return append(append(a, "--chdir", dir, "--"), b.Args...)
}

// Run starts the sandbox and waits for it. It returns the exit status, the
// combined output (capped), and whether the wall clock ran out; a timeout
// kills every process of the sandbox.
func (b *Box) Run(ctx context.Context) (code int, out []byte, timedOut bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, b.Timeout)
	defer cancel()
	cg := newCgroup()
	defer cg.remove()
	// The shell joins the cgroup before exec, so every descendant is counted.
	wrapper := fmt.Sprintf(`[ -z "$1" ] || echo $$ > "$1/cgroup.procs"; shift; exec "$@"`)
	argv := append([]string{"sh", "-c", wrapper, "sh", cg.dir, "prlimit",
		"--as=" + strconv.Itoa(maxMemory), "--fsize=" + strconv.Itoa(maxFile), "--nofile=4096", "--core=0", "bwrap"}, b.args()...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error {
		cg.kill()
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = 5 * time.Second
	var buf capped
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err = cmd.Run()
	cg.kill()
	timedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code, err = ee.ExitCode(), nil
	case timedOut:
		code, err = -1, nil
	default:
		return -1, buf.buf, false, fmt.Errorf("start sandbox: %w; is bubblewrap installed (apt-get install bubblewrap)?", err)
	}
	return code, buf.buf, timedOut, nil
}

// capped keeps the first maxOutput bytes written to it. exec calls Write
// from one goroutine when stdout and stderr are the same writer.
type capped struct{ buf []byte }

func (c *capped) Write(p []byte) (int, error) {
	c.buf = append(c.buf, p[:min(max(maxOutput-len(c.buf), 0), len(p))]...)
	return len(p), nil
}

// cgroup caps the process count of one sandbox with the pids controller,
// when the machine lets us create one; otherwise dir is empty.
type cgroup struct{ dir string }

func newCgroup() cgroup {
	dir := filepath.Join(cgroupRoot, fmt.Sprintf("ratchet-%d-%d", os.Getpid(), time.Now().UnixNano()))
	if os.Mkdir(dir, 0o755) != nil {
		return cgroup{}
	}
	if os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.Itoa(maxProcs)), 0o644) != nil {
		os.Remove(dir)
		return cgroup{}
	}
	return cgroup{dir}
}

func (c cgroup) kill() {
	if c.dir == "" {
		return
	}
	for range 50 {
		b, _ := os.ReadFile(filepath.Join(c.dir, "cgroup.procs"))
		pids := strings.Fields(string(b))
		if len(pids) == 0 {
			return
		}
		for _, p := range pids {
			if n, err := strconv.Atoi(p); err == nil {
				syscall.Kill(n, syscall.SIGKILL)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (c cgroup) remove() {
	if c.dir != "" {
		c.kill()
		os.Remove(c.dir)
	}
}
