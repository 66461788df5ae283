package anchor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
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
	Work, Cache, Dir string        // host folders for /work and /cache; working folder inside
	Harness, Socket  string        // optional: the harness binary and the model socket
	Env, Args        []string      // Env: name, value pairs added to the allowlist
	Timeout          time.Duration // wall clock for the whole process tree
}

// Limits on what one sandbox may use.
const (
	maxOutput, maxFile, maxMemory, maxProcs = 1 << 20, 256 << 20, 8 << 30, 512
)

var goroot = sync.OnceValue(func() string {
	out, _ := exec.Command("go", "env", "GOROOT").Output()
	return cmp(strings.TrimSpace(string(out)), "/usr/local/go")
})

func (b *Box) args() []string {
	gr := goroot()
	a := []string{"--unshare-all", "--die-with-parent", "--new-session", "--clearenv", "--cap-drop", "ALL",
		"--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--ro-bind", gr, gr, "--bind", b.Work, "/work", "--bind", b.Cache, "/cache"}
	for _, d := range []string{"/usr/bin", "/usr/lib", "/usr/lib64", "/usr/libexec", "/usr/share/zoneinfo", "/etc/alternatives"} {
		a = append(a, "--ro-bind-try", d, d)
	}
	for _, l := range []string{"bin", "lib", "lib64", "sbin"} {
		a = append(a, "--symlink", "usr/"+l, "/"+l)
	}
	if b.Harness != "" {
		a = append(a, "--ro-bind", b.Harness, "/opt/harness", "--bind", b.Socket, "/run/model.sock", "--setenv", "MODEL_SOCKET", "/run/model.sock")
	}
	env := append([]string{"PATH", gr + "/bin:/usr/bin:/bin", "HOME", "/tmp", "TMPDIR", "/tmp", "LANG", "C.UTF-8", "GOCACHE", "/cache",
		"GOPATH", "/tmp/go", "GOPROXY", "off", "GOTOOLCHAIN", "local", "GOTELEMETRY", "off", "CGO_ENABLED", "0", "GOFLAGS", "-mod=mod"}, b.Env...)
	for i := 0; i+1 < len(env); i += 2 {
		a = append(a, "--setenv", env[i], env[i+1])
	}
	return append(append(a, "--remount-ro", "/", "--chdir", cmp(b.Dir, "/work"), "--"), b.Args...)
}

// Run starts the sandbox and waits for it. It returns the exit status, the
// combined output (capped) and whether the wall clock ran out. Killing
// bubblewrap ends its pid namespace, so no process of the sandbox survives.
func (b *Box) Run(ctx context.Context) (code int, out []byte, timedOut bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, b.Timeout)
	defer cancel()
	// A pids cgroup, where the machine lets us make one, caps the process
	// count; the shell joins it before exec so every descendant is counted.
	cg := fmt.Sprintf("/sys/fs/cgroup/pids/ratchet-%d-%d", os.Getpid(), time.Now().UnixNano())
	if os.Mkdir(cg, 0o755) != nil || os.WriteFile(cg+"/pids.max", []byte(strconv.Itoa(maxProcs)), 0o644) != nil {
		cg = ""
	}
	defer func() {
		for i := 0; cg != "" && os.Remove(cg) != nil && i < 100; i++ {
			time.Sleep(10 * time.Millisecond)
		}
	}()
	argv := append([]string{"-c", `[ -z "$1" ] || echo $$ > "$1/cgroup.procs"; shift; exec "$@"`, "sh", cg, "prlimit",
		"--as=" + strconv.Itoa(maxMemory), "--fsize=" + strconv.Itoa(maxFile), "--nofile=4096", "--core=0", "bwrap"}, b.args()...)
	cmd := exec.CommandContext(ctx, "sh", argv...)
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var buf capped
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err = cmd.Run(); err != nil && cmd.ProcessState == nil {
		return -1, buf, false, fmt.Errorf("start sandbox: %w; is bubblewrap installed (apt-get install bubblewrap)?", err)
	}
	return cmd.ProcessState.ExitCode(), buf, errors.Is(ctx.Err(), context.DeadlineExceeded), nil
}

// capped keeps the first maxOutput bytes written to it. exec calls Write
// from one goroutine when stdout and stderr are the same writer.
type capped []byte

func (c *capped) Write(p []byte) (int, error) {
	*c = append(*c, p[:min(max(maxOutput-len(*c), 0), len(p))]...)
	return len(p), nil
}

// Proxy is a run's only way to the model. It listens on a unix socket bound
// into the sandbox, injects the credential, pins the operator's model name,
// forwards to the upstream, counts tokens from usage (streams included) and
// answers 429 once the budget is spent. Of a body it reads only the model,
// the stream flag and usage, and the credential never appears in what it
// returns.
type Proxy struct {
	API, Upstream, Model, key string
	Budget, in, out           int64
	mu                        sync.Mutex
	srv                       *http.Server
}

// StartProxy serves on the unix socket at sock.
func StartProxy(sock, api, upstream, model, key string, budget int64) (*Proxy, error) {
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return nil, fmt.Errorf("start model proxy: %w", err)
	}
	p := &Proxy{API: api, Upstream: strings.TrimRight(upstream, "/"), Model: model, key: key, Budget: budget}
	p.srv = &http.Server{Handler: p}
	go p.srv.Serve(ln)
	return p, nil
}

// Close stops the proxy.
func (p *Proxy) Close() error { return p.srv.Close() }

// Used returns the tokens counted so far.
func (p *Proxy) Used() (in, out int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.in, p.out
}

func (p *Proxy) scrub(s string) string {
	return strings.ReplaceAll(s, cmp(p.key, "\x00no credential"), "[credential]")
}

func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("x-should-retry", "false")
	if in, out := p.Used(); in+out >= p.Budget {
		http.Error(w, `{"type":"error","error":{"type":"budget_exhausted","message":"the run's token budget is spent"}}`, http.StatusTooManyRequests)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	var req map[string]json.RawMessage
	if json.Unmarshal(body, &req) == nil { // I1: the operator's model, whatever the harness names
		req["model"], _ = json.Marshal(p.Model)
		if p.API == "openai" && string(req["stream"]) == "true" { // ask for the usage chunk, or a stream cannot be counted
			req["stream_options"] = json.RawMessage(`{"include_usage":true}`)
		}
		body, _ = json.Marshal(req)
	}
	up, _ := http.NewRequestWithContext(r.Context(), r.Method, p.Upstream+r.URL.RequestURI(), bytes.NewReader(body))
	for _, h := range []string{"Content-Type", "Accept", "anthropic-version", "anthropic-beta"} {
		up.Header.Set(h, r.Header.Get(h))
	}
	if p.key != "" && p.API == "anthropic" {
		up.Header.Set("x-api-key", p.key)
	} else if p.key != "" {
		up.Header.Set("Authorization", "Bearer "+p.key)
	}
	resp, err := http.DefaultTransport.RoundTrip(up)
	if err != nil {
		http.Error(w, p.scrub("model server unreachable: "+err.Error()), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.Header().Del("x-should-retry")
	w.Header().Set("Content-Type", resp.Header.Get("Content-Type")) // no other upstream header is relayed
	w.WriteHeader(resp.StatusCode)
	// Streams are relayed line by line (SSE events are lines) so that usage
	// is counted and the credential scrubbed without holding them back.
	var in, out int64
	count := func(s string) {
		i, o := usageOf(s)
		in, out = max(in, i), max(out, o)
	}
	fl, _ := w.(http.Flusher)
	br := bufio.NewReader(resp.Body)
	for stream := strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream"); stream; {
		line, err := br.ReadString('\n')
		count(strings.TrimPrefix(line, "data:"))
		io.WriteString(w, p.scrub(line))
		if fl != nil && line == "\n" {
			fl.Flush()
		}
		stream = err == nil
	}
	b, _ := io.ReadAll(io.LimitReader(br, 64<<20))
	count(string(b))
	io.WriteString(w, p.scrub(string(b)))
	p.mu.Lock()
	p.in, p.out = p.in+in, p.out+out
	p.mu.Unlock()
}

// usageOf reads token counts from one JSON message: OpenAI's usage, or
// Anthropic's (top-level, or in message_start's message), cache included.
// Anthropic streams a running output total, so callers keep the maximum.
func usageOf(s string) (in, out int64) {
	// encoding/json matches keys to field names without regard to case.
	type usage struct{ Prompt_tokens, Completion_tokens, Input_tokens, Output_tokens, Cache_creation_input_tokens, Cache_read_input_tokens int64 }
	var v struct {
		Usage   *usage
		Message struct{ Usage *usage }
	}
	json.Unmarshal([]byte(s), &v)
	for _, u := range []*usage{v.Usage, v.Message.Usage} {
		if u != nil {
			in = max(in, u.Prompt_tokens+u.Input_tokens+u.Cache_creation_input_tokens+u.Cache_read_input_tokens)
			out = max(out, u.Completion_tokens+u.Output_tokens)
		}
	}
	return in, out
}
