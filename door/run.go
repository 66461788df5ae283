package door

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"ratchet/anchor"
)

// DetectTest guesses a project's test command: go test, pytest, npm test or
// make test, in that order; "" when none applies.
func DetectTest(dir string) string {
	has := func(name string) bool { _, err := os.Stat(filepath.Join(dir, name)); return err == nil }
	pkg, _ := os.ReadFile(filepath.Join(dir, "package.json"))
	mk, _ := os.ReadFile(filepath.Join(dir, "Makefile"))
	switch {
	case has("go.mod"):
		return "go test ./..."
	case has("pytest.ini") || has("conftest.py") || has("pyproject.toml") || has("setup.cfg") || has("tests"):
		return "pytest -q"
	case bytes.Contains(pkg, []byte(`"test"`)):
		return "npm test"
	case bytes.Contains(mk, []byte("\ntest:")) || bytes.HasPrefix(mk, []byte("test:")):
		return "make test"
	}
	return ""
}

// runTests runs the test command in dir and says how it went.
func runTests(ctx context.Context, dir, command string) string {
	if command == "" {
		return "no test command"
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir, cmd.SysProcAttr = dir, &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	if err := cmd.Run(); err != nil {
		return "fail (" + err.Error() + ")"
	}
	return "pass"
}

// run runs the harness on the project, directly or in the sandbox, and
// fills the record from its trace.
func (d *Door) run(ctx context.Context, bin string, rec *Record, prompt string, progress io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, d.cfg.Timeout)
	defer cancel()
	work, err := os.MkdirTemp(filepath.Join(d.cfg.Home, "tmp"), "run-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	files := map[string][]byte{"prompt.txt": []byte(prompt), "test.txt": []byte(rec.Test + "\n"), "trace.jsonl": nil}
	if err := anchor.WriteTree(work, files); err != nil {
		return err
	}
	trace := filepath.Join(work, "trace.jsonl")
	stop := tail(trace, progress)
	if d.cfg.Sandbox {
		err = d.sandboxed(ctx, bin, work, rec.Project)
	} else {
		cmd := exec.CommandContext(ctx, bin, "-task", rec.Project, work)
		cmd.Env = append(d.modelEnv(), "MODEL_SOCKET=")
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
	os.Rename(trace, rec.TracePath)
	fromTrace(rec)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// modelEnv is the environment of the harness: the operator's, with the
// context size stated in MODEL_OPTIONS when NumCtx is set and the options
// do not already say it.
func (d *Door) modelEnv() []string {
	env := append([]string(nil), d.cfg.Env...)
	opts := getenv(env, "MODEL_OPTIONS")
	if d.cfg.NumCtx > 0 && !strings.Contains(opts, "num_ctx") {
		m := map[string]any{}
		json.Unmarshal([]byte(cmp(opts, "{}")), &m)
		o, _ := m["options"].(map[string]any)
		if o == nil {
			o = map[string]any{}
		}
		o["num_ctx"] = d.cfg.NumCtx
		m["options"] = o
		b, _ := json.Marshal(m)
		env = append(env, "MODEL_OPTIONS="+string(b))
	}
	return env
}

// sandboxed runs the harness under bubblewrap on a copy of the project, with
// the anchor's proxy holding the credential, and writes the agent's changes
// back.
func (d *Door) sandboxed(ctx context.Context, bin, work, project string) error {
	before, err := anchor.ReadTree(project, false)
	if err != nil {
		return err
	}
	if err := anchor.WriteTree(filepath.Join(work, "task"), before); err != nil {
		return err
	}
	env := d.modelEnv()
	key := cmp(getenv(env, "MODEL_API_KEY"), getenv(env, map[bool]string{true: "ANTHROPIC_API_KEY", false: "OPENAI_API_KEY"}[getenv(env, "MODEL_API") == "anthropic"]))
	sock := filepath.Join(work, "model.sock")
	proxy, err := anchor.StartProxy(sock, cmp(getenv(env, "MODEL_API"), "openai"), cmp(getenv(env, "MODEL_URL"), "http://127.0.0.1:11434"), getenv(env, "MODEL_NAME"), key, 1<<62)
	if err != nil {
		return err
	}
	defer proxy.Close()
	cache := filepath.Join(d.cfg.Home, "cache", "sandbox") // this user's own builds share it
	os.MkdirAll(cache, 0o755)
	box := anchor.Box{Work: work, Cache: cache, Timeout: d.cfg.Timeout, Harness: bin, Socket: sock, Args: []string{"/opt/harness", "/work"},
		Env: []string{"MODEL_API", getenv(env, "MODEL_API"), "MODEL_NAME", getenv(env, "MODEL_NAME"), "MODEL_OPTIONS", getenv(env, "MODEL_OPTIONS")}}
	code, out, timedOut, err := box.Run(ctx)
	after, rerr := anchor.ReadTree(filepath.Join(work, "task"), false)
	if rerr == nil {
		rerr = writeBack(project, before, after)
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

// tail prints the trace's tool calls and replies as they are written, until
// the returned stop function is called.
func tail(path string, w io.Writer) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	var off int64
	read := func() {
		f, err := os.Open(path)
		if err != nil {
			return
		}
		defer f.Close()
		f.Seek(off, io.SeekStart)
		for r := bufio.NewReader(f); ; {
			line, err := r.ReadString('\n')
			if err != nil {
				return // a partial line is read again next time
			}
			off += int64(len(line))
			if s := describe(line); s != "" {
				fmt.Fprintln(w, s)
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

func describe(line string) string {
	var ev map[string]any
	if json.Unmarshal([]byte(line), &ev) != nil {
		return ""
	}
	switch ev["type"] {
	case "tool_call":
		return fmt.Sprintf("  step %v: %v %s", ev["step"], ev["name"], clip(fmt.Sprint(ev["args"]), 100))
	case "error":
		return "  error: " + clip(fmt.Sprint(ev["message"]), 200)
	case "done":
		return fmt.Sprintf("  done: %v after %v steps", ev["reason"], ev["steps"])
	}
	return ""
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// fromTrace fills the record's calls, answer and outcome from its trace.
func fromTrace(rec *Record) {
	b, _ := os.ReadFile(rec.TracePath)
	byID := map[string]int{}
	for _, line := range strings.Split(string(b), "\n") {
		var ev struct {
			Type, ID, Name, Args, Result, Text, Reason string
			Steps                                      int
			Truncated, Rejected                        bool
			Usage                                      struct{ Input, Output int }
		}
		if json.Unmarshal([]byte(line), &ev) != nil {
			continue
		}
		switch ev.Type {
		case "tool_call":
			byID[ev.ID] = len(rec.Calls)
			rec.Calls = append(rec.Calls, Call{ID: ev.ID, Name: ev.Name, Args: ev.Args})
		case "tool_result":
			if i, ok := byID[ev.ID]; ok {
				rec.Calls[i].Observation, rec.Calls[i].Rejected, rec.Calls[i].Truncated = ev.Result, ev.Rejected, ev.Truncated
			}
		case "model_reply":
			if ev.Text != "" {
				rec.Answer = ev.Text
			}
		case "done":
			rec.Outcome, rec.Steps, rec.Tokens = ev.Reason, ev.Steps, ev.Usage.Input+ev.Usage.Output
		}
	}
	if rec.Outcome == "" {
		rec.Outcome = "no result"
	}
}

// writeBack applies the agent's changes to the project through os.Root, so a
// symlink in the project can never lead a write outside it.
func writeBack(project string, before, after map[string][]byte) error {
	root, err := os.OpenRoot(project)
	if err != nil {
		return err
	}
	defer root.Close()
	var errs []error
	for _, name := range changed(before, after) {
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
	return errors.Join(errs...)
}
