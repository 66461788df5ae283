package door

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"ratchet/internal/datafile"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"ratchet/anchor"
	"ratchet/harness/trace"
	"ratchet/internal/show"
)

// DetectTest guesses a project's test command from the files that name a
// build, in this order: go test, pytest, cargo test, Maven, Gradle (its
// wrapper when the project has one), npm test, make test, CMake and CTest;
// "" when none applies.
func DetectTest(dir string) string {
	has := func(name string) bool { _, err := os.Lstat(filepath.Join(dir, name)); return err == nil }
	// A project's files may be links to /dev/zero, a FIFO or stdin: read
	// regular files only, and a little of them.
	pkg, _, _ := datafile.Read(filepath.Join(dir, "package.json"), maxProjectFile)
	mk, _, _ := datafile.Read(filepath.Join(dir, "Makefile"), maxProjectFile)
	switch {
	case has("go.mod"):
		return "go test ./..."
	case has("pytest.ini") || has("conftest.py") || has("pyproject.toml") || has("setup.cfg") || has("tests"):
		return "pytest -q"
	case has("Cargo.toml"):
		return "cargo test"
	case has("pom.xml"):
		return "mvn -q test"
	case has("gradlew") && (has("build.gradle") || has("build.gradle.kts")):
		return "./gradlew test"
	case has("build.gradle") || has("build.gradle.kts"):
		return "gradle test"
	case bytes.Contains(pkg, []byte(`"test"`)):
		return "npm test"
	case bytes.Contains(mk, []byte("\ntest:")) || bytes.HasPrefix(mk, []byte("test:")):
		return "make test"
	case has("CMakeLists.txt"):
		return "cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure"
	}
	return ""
}

// tests runs the test command on the project: in a sandbox of its own
// under --sandbox, else on the host as the user, without credentials.
func (d *Door) tests(ctx context.Context, project, command string) string {
	if command == "" {
		return "no test command"
	}
	if d.cfg.Sandbox {
		return d.boxTests(ctx, project, command)
	}
	ctx, cancel := context.WithTimeout(ctx, testTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir, cmd.Env = project, HostEnv(d.cfg.Env, d.key())
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	if err := cmd.Run(); err != nil {
		return "fail (" + err.Error() + ")"
	}
	return "pass"
}

// unreachable says why the model server cannot be reached at all (nothing
// listens at MODEL_URL's host and port, or at the HTTP proxy the
// environment names for it), or "" when something answers a connection
// there. It is asked before the tests run, so a request to a
// server that is down ends in seconds, not after the tests and the
// harness's retries. A server that accepts connections but fails requests
// is the harness's retries' to find.
func (d *Door) unreachable(ctx context.Context) string {
	raw := cmp.Or(getenv(d.cfg.Env, "MODEL_URL"), "http://127.0.0.1:11434")
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Sprintf("MODEL_URL=%q is not a URL like http://127.0.0.1:11434; set it to the model server", raw)
	}
	if via, err := http.ProxyFromEnvironment(&http.Request{URL: u}); err == nil && via != nil {
		u = via // the requests go through the operator's HTTP proxy: it is what must listen
	}
	host := u.Host
	if u.Port() == "" {
		port := "80"
		if u.Scheme == "https" {
			port = "443"
		}
		host = net.JoinHostPort(u.Hostname(), port)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	c, err := (&net.Dialer{}).DialContext(ctx, "tcp", host)
	if err != nil {
		return fmt.Sprintf("the model server at %s is not reachable (%v): start it, or set MODEL_URL and MODEL_NAME; "+
			"nothing was run", raw, err)
	}
	c.Close() // a probe that sent nothing: closing it cannot lose anything
	return ""
}

// testTimeout bounds one run of the project's tests.
const testTimeout = 5 * time.Minute

// key is the model credential: MODEL_API_KEY, else the API's usual variable.
func (d *Door) key() string {
	keyVar := "OPENAI_API_KEY"
	if getenv(d.cfg.Env, "MODEL_API") == "anthropic" {
		keyVar = "ANTHROPIC_API_KEY"
	}
	return cmp.Or(getenv(d.cfg.Env, "MODEL_API_KEY"), getenv(d.cfg.Env, keyVar))
}

// run runs the harness on the project, directly or in the sandbox, and
// fills the record from its trace. Either way the model is reached through
// the anchor's proxy, which holds the credential and the request's budget:
// the harness never sees the key.
func (d *Door) run(ctx context.Context, bin string, proj *projectDir, rec *Record, prompt string, progress io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, d.cfg.Timeout)
	defer cancel()
	work, err := os.MkdirTemp(filepath.Join(d.cfg.Home, "tmp"), "run-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	box := filepath.Join(work, "box") // the harness's work folder: /work in the sandbox
	files := map[string][]byte{"prompt.txt": []byte(prompt), "test.txt": []byte(rec.Test + "\n"), "trace.jsonl": nil}
	if err := anchor.WriteTree(box, files); err != nil {
		return err
	}
	sock := filepath.Join(work, "model.sock")
	proxy, err := d.startProxy(sock)
	if err != nil {
		return err
	}
	defer proxy.Close()
	tracePath := filepath.Join(box, "trace.jsonl")
	stop := tail(tracePath, progress)
	if d.cfg.Sandbox {
		err = d.sandboxed(ctx, bin, work, proj, rec, progress)
	} else {
		cmd := exec.CommandContext(ctx, bin, "-task", rec.Project, box)
		cmd.Env = append(HostEnv(d.modelEnv(), d.key()), "MODEL_URL=", "MODEL_SOCKET="+sock)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		var out bytes.Buffer
		cmd.Stderr = &out
		if err = cmd.Run(); err != nil && ctx.Err() == nil {
			err = fmt.Errorf("harness: %v: %s", err, strings.TrimSpace(out.String()))
		}
	}
	stop()
	rec.TracePath, _ = filepath.Abs(filepath.Join(d.cfg.Home, "traces", rec.ID+".jsonl"))
	if terr := copyTrace(tracePath, rec.TracePath); terr != nil {
		fmt.Fprintf(progress, "the agent's trace was not read: %s\n", show.Line(fmt.Sprint(terr), 2000))
	}
	refused, widest := fromTrace(rec)
	if n := d.cfg.NumCtx; n > 0 && widest >= n*95/100 && d.ollama() {
		w := fmt.Sprintf("the model's context was full: a prompt of %d tokens against Ollama's num_ctx %d, and Ollama "+
			"cuts a longer prompt silently (the agent then seems to ignore its instructions); raise --num-ctx", widest, n)
		rec.Warnings = append(rec.Warnings, w)
		fmt.Fprintf(progress, "warning: %s\n", w)
	}
	// The proxy refuses a request once what is left cannot cover it, so a
	// spent budget shows as its refusal, or as usage reaching the budget.
	// An interrupt is not a spent budget, whatever the proxy had reserved.
	if in, out := proxy.Used(); ctx.Err() == nil && rec.Outcome != "completed" && (in+out >= d.cfg.Budget || refused) {
		rec.Outcome = "budget_spent"
		fmt.Fprintf(progress, "budget spent: the agent used %d of the request's %d model tokens and was stopped; the operator can raise it with --budget\n",
			in+out, d.cfg.Budget)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// startProxy starts the anchor's model proxy for one request: the
// credential and the operator's model stay on the host side of the socket.
func (d *Door) startProxy(sock string) (*anchor.Proxy, error) {
	env := d.cfg.Env
	return anchor.StartProxy(sock, anchor.ProxyConfig{
		API:      cmp.Or(getenv(env, "MODEL_API"), "openai"),
		Upstream: cmp.Or(getenv(env, "MODEL_URL"), "http://127.0.0.1:11434"),
		Model:    getenv(env, "MODEL_NAME"),
		Key:      d.key(),
		Options:  getenv(d.modelEnv(), "MODEL_OPTIONS"), // the harness merges them in; the proxy knows their keys
		Budget:   d.cfg.Budget,
	})
}

// modelEnv is the environment of the harness: the operator's, with what
// only Ollama reads added to MODEL_OPTIONS when the model server is Ollama
// (ollama) and the options do not already say it: the context size
// (options.num_ctx, when NumCtx is set; Ollama otherwise cuts every prompt
// to its default) and reasoning_effort "none" (no thinking, as the harness
// asks of every model). A hosted API refuses a field it does not know
// (OpenAI: "Unrecognized request argument supplied"; Anthropic: "Extra
// inputs are not permitted"), so no other server is sent either.
func (d *Door) modelEnv() []string {
	env := append([]string(nil), d.cfg.Env...)
	opts := getenv(env, "MODEL_OPTIONS")
	if !d.ollama() {
		return env
	}
	m := map[string]any{}
	json.Unmarshal([]byte(cmp.Or(opts, "{}")), &m)
	if _, set := m["reasoning_effort"]; !set && getenv(env, "MODEL_API") != "anthropic" {
		m["reasoning_effort"] = "none"
	}
	if d.cfg.NumCtx > 0 && !strings.Contains(opts, "num_ctx") {
		o, _ := m["options"].(map[string]any)
		if o == nil {
			o = map[string]any{}
		}
		o["num_ctx"] = d.cfg.NumCtx
		m["options"] = o
	}
	b, _ := json.Marshal(m)
	return append(env, "MODEL_OPTIONS="+string(b))
}

// ollama says whether the model server is Ollama: it answers GET
// /api/version with its version, which no hosted API serves. Asked once
// per door, within two seconds; a server that does not answer is not Ollama
// (and the request will say it is down).
func (d *Door) ollama() bool {
	d.ollamaOnce.Do(func() {
		url := strings.TrimRight(cmp.Or(getenv(d.cfg.Env, "MODEL_URL"), "http://127.0.0.1:11434"), "/")
		url = strings.TrimSuffix(url, "/v1") + "/api/version"
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return
		}
		defer resp.Body.Close()
		var v struct{ Version string }
		err = json.NewDecoder(io.LimitReader(resp.Body, 4096)).Decode(&v)
		d.isOllama = resp.StatusCode == http.StatusOK && err == nil && v.Version != ""
	})
	return d.isOllama
}

// tail prints the trace's tool calls and replies as they are written, until
// the returned stop function is called.
func tail(path string, w io.Writer) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	var off int64
	read := func() {
		f, err := datafile.Open(path)
		if err != nil {
			return
		}
		defer f.Close()
		f.Seek(off, io.SeekStart)
		for r := bufio.NewReader(io.LimitReader(f, max(0, maxTrace-off))); ; {
			line, err := r.ReadString('\n')
			if err != nil {
				return // a partial line is read again next time
			}
			off += int64(len(line))
			if s := describe(line); s != "" {
				fmt.Fprintln(w, show.Line(s, 2000)) // a trace event: the agent's words
			}
		}
	}
	go func() {
		defer close(finished)
		for {
			read()
			select {
			case <-done:
				read()
				return
			case <-time.After(150 * time.Millisecond):
			}
		}
	}()
	return func() { close(done); <-finished }
}

// describe is one line of progress for a line of the trace, or "" for a
// line the operator need not see.
func describe(line string) string {
	switch e := trace.Parse([]byte(strings.TrimSuffix(line, "\n"))).Event.(type) {
	case trace.ToolCall:
		return fmt.Sprintf("  step %d: %s %s", e.Step, e.Name, Clip(e.Args, 100))
	case trace.Error:
		return "  error: " + Clip(e.Message, 200)
	case trace.Done:
		if e.Reason == "completed" && e.Steps > 0 { // the last step is the answer, which calls no tool
			return fmt.Sprintf("  done: %s after %s (step %d: the answer)", e.Reason, show.Count(e.Steps, "step"), e.Steps)
		}
		return fmt.Sprintf("  done: %s after %s", e.Reason, show.Count(e.Steps, "step"))
	}
	return ""
}

// Clip is s on one line, cut to at most n bytes at a word's end (or, when
// no word ends in the second half of n, at a character's) with an ellipsis.
func Clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if sp := strings.LastIndexByte(s[:cut+1], ' '); sp > n/2 {
		cut = sp
	}
	return s[:cut] + "…"
}

// fromTrace fills the record's calls, answer and outcome from its trace. It
// reports whether the proxy refused a model request for the budget, and the
// most input tokens one model reply was charged (the widest prompt the
// server says it read).
func fromTrace(rec *Record) (budgetRefused bool, widest int) {
	b, _ := os.ReadFile(rec.TracePath) // the door's own copy, at most maxTrace bytes
	lines, _ := trace.Read(bytes.NewReader(b))
	byID := map[string]int{}
	for _, l := range lines {
		switch e := l.Event.(type) {
		case trace.ToolCall:
			byID[e.ID] = len(rec.Calls)
			rec.Calls = append(rec.Calls, Call{ID: e.ID, Name: e.Name, Args: e.Args})
		case trace.ToolResult:
			if i, ok := byID[e.ID]; ok {
				rec.Calls[i].Observation, rec.Calls[i].Rejected, rec.Calls[i].Truncated = e.Result, e.Rejected, e.Truncated
			}
		case trace.ModelReply:
			if e.Text != "" {
				rec.Answer = e.Text
			}
			widest = max(widest, e.Usage.Input)
		case trace.Done:
			rec.Outcome, rec.Steps, rec.Tokens = e.Reason, e.Steps, e.Usage.Total()
			rec.TokensIn, rec.TokensOut = e.Usage.Input, e.Usage.Output
		case trace.Error:
			budgetRefused = budgetRefused || strings.Contains(e.Message, "budget_exhausted")
		}
	}
	if rec.Outcome == "" {
		rec.Outcome = "no result"
	}
	return budgetRefused, widest
}
