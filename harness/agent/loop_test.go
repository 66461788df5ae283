package agent

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ratchet/harness/core"
	"ratchet/harness/fakemodel"
	"ratchet/harness/memory"
	"ratchet/harness/model"
	"ratchet/harness/trace"
)

var apis = []string{"openai", "anthropic"}

type run struct {
	res    Result
	reqs   []fakemodel.Request
	events []map[string]any
	root   string
}

// runScript runs the real loop, registry, middleware and wire client against
// a scripted server on a temporary task tree.
func runScript(t *testing.T, api string, setup func(root string), steps ...fakemodel.Step) run {
	t.Helper()
	return runWith(t, api, Middleware(), setup, steps...)
}

// runWith is runScript with a middleware chain of the test's own choosing:
// the loop's plumbing is tested with middleware the test defines, so no
// test of the immutable loop holds an editable file's value.
func runWith(t *testing.T, api string, mw []any, setup func(root string), steps ...fakemodel.Step) run {
	t.Helper()
	srv, err := fakemodel.Start(steps...)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	root := t.TempDir()
	if setup != nil {
		setup(root)
	}
	tp := filepath.Join(t.TempDir(), "trace.jsonl")
	tw, err := trace.Open(tp)
	if err != nil {
		t.Fatal(err)
	}
	res := Run(context.Background(), Config{
		Model:        model.New(model.Config{API: api, URL: srv.URL, Name: "m"}),
		SystemPrompt: "system",
		Prompt:       "fix the bug",
		Root:         root,
		TestCommand:  "true",
		Trace:        tw,
		Tools:        Tools(),
		Middleware:   mw,
		Memory:       memory.New(),
	})
	tw.Close()
	return run{res: res, reqs: srv.Requests(), events: readTrace(t, tp), root: root}
}

func readTrace(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var evs []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var e map[string]any
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("trace line is not JSON: %v: %s", err, sc.Text())
		}
		evs = append(evs, e)
	}
	return evs
}

func (r run) ofType(typ string) []map[string]any {
	var out []map[string]any
	for _, e := range r.events {
		if e["type"] == typ {
			out = append(out, e)
		}
	}
	return out
}

// toolResults extracts the tool results of a request in order, as
// (call id, content) pairs, in either wire format.
func toolResults(t *testing.T, req fakemodel.Request) [][2]string {
	t.Helper()
	var out [][2]string
	for _, raw := range req.Messages() {
		var m struct {
			Role       string          `json:"role"`
			ToolCallID string          `json:"tool_call_id"`
			Content    json.RawMessage `json:"content"`
		}
		json.Unmarshal(raw, &m)
		if m.Role == "tool" {
			var s string
			json.Unmarshal(m.Content, &s)
			out = append(out, [2]string{m.ToolCallID, s})
			continue
		}
		var blocks []struct {
			Type      string `json:"type"`
			ToolUseID string `json:"tool_use_id"`
			Content   string `json:"content"`
		}
		if json.Unmarshal(m.Content, &blocks) == nil {
			for _, b := range blocks {
				if b.Type == "tool_result" {
					out = append(out, [2]string{b.ToolUseID, b.Content})
				}
			}
		}
	}
	return out
}

func call(id, name, args string) fakemodel.Call {
	return fakemodel.Call{ID: id, Name: name, Args: args}
}

func TestUnknownToolThenValidCall(t *testing.T) {
	// One reply names an unknown tool and then a valid one; the next turn
	// gets two observations, in order, the first a rejection, and nothing
	// ran for it.
	for _, api := range apis {
		t.Run(api, func(t *testing.T) {
			r := runScript(t, api, func(root string) {
				os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n"), 0o644)
			},
				fakemodel.Step{Calls: []fakemodel.Call{
					call("c1", "delete_file", `{"path":"a.go"}`),
					call("c2", "read_file", `{"path":"a.go"}`),
				}},
				fakemodel.Step{Text: "done"},
			)
			if len(r.reqs) != 2 {
				t.Fatalf("requests = %d, want 2", len(r.reqs))
			}
			got := toolResults(t, r.reqs[1])
			if len(got) != 2 {
				t.Fatalf("observations = %v, want 2", got)
			}
			if got[0][0] != "c1" || !strings.Contains(got[0][1], `unknown tool "delete_file"`) || !strings.Contains(got[0][1], "read_file") {
				t.Errorf("first observation = %v, want a rejection of c1 naming the valid tools", got[0])
			}
			if got[1][0] != "c2" || got[1][1] != "package a\n" {
				t.Errorf("second observation = %v, want c2 with the file", got[1])
			}
			if _, err := os.Stat(filepath.Join(r.root, "a.go")); err != nil {
				t.Errorf("the rejected call changed the tree: %v", err)
			}
			res := r.ofType("tool_result")
			if len(res) != 2 || res[0]["rejected"] != true || res[1]["rejected"] != nil {
				t.Errorf("trace tool_results = %v", res)
			}
			if r.res.Reason != "completed" {
				t.Errorf("reason = %q", r.res.Reason)
			}
		})
	}
}

func TestInvalidArgumentsAreRejectedBeforeDispatch(t *testing.T) {
	tests := []struct {
		name, tool, args, want string
	}{
		{"malformed json", "write_file", `{"path": "x.go", "content": `, "not a JSON object"},
		{"missing property", "write_file", `{"path": "x.go"}`, `missing required property "content"`},
		{"wrong type", "write_file", `{"path": 5, "content": "x"}`, `property "path" must be a string`},
		{"unknown property", "write_file", `{"path": "x.go", "content": "x", "mode": 1}`, `unknown property "mode"`},
		{"array instead of object", "write_file", `["x.go"]`, "not a JSON object"},
	}
	for _, api := range apis {
		for _, tt := range tests {
			t.Run(api+"/"+tt.name, func(t *testing.T) {
				if api == "anthropic" && !json.Valid([]byte(tt.args)) {
					t.Skip("the messages API carries input as a JSON object; it cannot be malformed on the wire")
				}
				r := runScript(t, api, nil, fakemodel.Step{Calls: []fakemodel.Call{call("c1", tt.tool, tt.args)}}, fakemodel.Step{Text: "ok"})
				got := toolResults(t, r.reqs[1])
				if len(got) != 1 || got[0][0] != "c1" || !strings.Contains(got[0][1], tt.want) {
					t.Fatalf("observation = %v, want one for c1 containing %q", got, tt.want)
				}
				if _, err := os.Stat(filepath.Join(r.root, "x.go")); err == nil {
					t.Error("a rejected call wrote a file")
				}
			})
		}
	}
}

func TestPathEscapes(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("s3cret"), 0o644)
	setup := func(root string) {
		os.Symlink(outside, filepath.Join(root, "link"))
		os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "s.txt"))
	}
	tests := []struct{ tool, args string }{
		{"read_file", `{"path":"/etc/passwd"}`},
		{"read_file", `{"path":"../../etc/passwd"}`},
		{"read_file", `{"path":"link/secret"}`},
		{"read_file", `{"path":"s.txt"}`},
		{"write_file", `{"path":"/tmp/pwned","content":"x"}`},
		{"write_file", `{"path":"../pwned","content":"x"}`},
		{"write_file", `{"path":"link/pwned","content":"x"}`},
		{"write_file", `{"path":"s.txt","content":"x"}`},
		{"list_dir", `{"path":"link"}`},
		{"list_dir", `{"path":".."}`},
	}
	for _, tt := range tests {
		t.Run(tt.tool+tt.args, func(t *testing.T) {
			r := runScript(t, "openai", setup, fakemodel.Step{Calls: []fakemodel.Call{call("c1", tt.tool, tt.args)}}, fakemodel.Step{Text: "ok"})
			got := toolResults(t, r.reqs[1])
			if len(got) != 1 || !strings.HasPrefix(got[0][1], "error:") || strings.Contains(got[0][1], "s3cret") {
				t.Fatalf("observation = %v, want an error string", got)
			}
			if b, _ := os.ReadFile(filepath.Join(outside, "secret")); string(b) != "s3cret" {
				t.Error("a file outside the root was changed")
			}
			if _, err := os.Stat(filepath.Join(outside, "pwned")); err == nil {
				t.Error("a file was written outside the root")
			}
		})
	}
}

// retryServer is the test's own retry: a 5xx is retried up to attempts
// times, at once; nothing else is.
type retryServer struct{ attempts int }

func (r retryServer) OnModelError(s *core.State, err error) bool {
	var me *core.ModelError
	return errors.As(err, &me) && me.Status >= 500 && s.Attempt <= r.attempts
}

// caps is the test's own budget: it stops at steps or at tokens.
type caps struct{ steps, tokens int }

func (c caps) ShouldStop(s *core.State) string {
	switch {
	case s.Step >= c.steps:
		return "step_limit"
	case s.Usage.Total() >= c.tokens:
		return "token_limit"
	}
	return ""
}

func TestRetryOnServerErrors(t *testing.T) {
	for _, api := range apis {
		t.Run(api, func(t *testing.T) {
			r := runWith(t, api, []any{retryServer{3}}, nil,
				fakemodel.Step{Status: 500, Body: `{"error":"boom"}`},
				fakemodel.Step{Status: 503, Body: `{"error":"busy"}`},
				fakemodel.Step{Text: "fine"})
			if len(r.reqs) != 3 || r.res.Reason != "completed" || r.res.Steps != 1 {
				t.Fatalf("requests=%d reason=%q steps=%d; want 3, completed, 1", len(r.reqs), r.res.Reason, r.res.Steps)
			}
			if n := len(r.ofType("error")); n != 2 {
				t.Errorf("error events = %d, want 2", n)
			}
		})
	}
}

func TestRetryGivesUp(t *testing.T) {
	var steps []fakemodel.Step
	for range 6 {
		steps = append(steps, fakemodel.Step{Status: 502, Body: "bad gateway"})
	}
	r := runWith(t, "openai", []any{retryServer{3}}, nil, steps...)
	if len(r.reqs) != 4 || r.res.Reason != "model_error" {
		t.Fatalf("requests=%d reason=%q; want 4 attempts then model_error", len(r.reqs), r.res.Reason)
	}
}

// Every honest retry.go keeps these: a client error other than 429 is the
// request's fault and is never retried; a server error that does not go
// away ends the run as a model error after a bounded number of attempts.
func TestEditableRetryKeepsItsContract(t *testing.T) {
	for _, status := range []int{400, 401, 404, 422} {
		r := runScript(t, "openai", nil, fakemodel.Step{Status: status, Body: `{"error":"no"}`}, fakemodel.Step{Text: "never"})
		if len(r.reqs) != 1 || r.res.Reason != "model_error" {
			t.Errorf("status %d: requests=%d reason=%q; want 1 request and model_error", status, len(r.reqs), r.res.Reason)
		}
	}
	var steps []fakemodel.Step
	for range 20 {
		steps = append(steps, fakemodel.Step{Status: 502, Body: "bad gateway"})
	}
	if r := runScript(t, "openai", nil, steps...); r.res.Reason != "model_error" || len(r.reqs) >= 20 {
		t.Errorf("a lasting 502: requests=%d reason=%q; want model_error before the 20th attempt", len(r.reqs), r.res.Reason)
	}
}

func TestMalformedReplyStopsCleanly(t *testing.T) {
	for _, api := range apis {
		for _, raw := range []string{"not json", `{"choices":[]}`, `{"type":"error"}`} {
			r := runScript(t, api, nil, fakemodel.Step{Raw: raw})
			if r.res.Reason != "model_error" || len(r.reqs) != 1 {
				t.Errorf("%s %q: reason=%q requests=%d", api, raw, r.res.Reason, len(r.reqs))
			}
			errs := r.ofType("error")
			if len(errs) != 1 || !strings.Contains(errs[0]["message"].(string), "malformed") {
				t.Errorf("%s %q: error events = %v", api, raw, errs)
			}
			if d := r.ofType("done"); len(d) != 1 || d[0]["reason"] != "model_error" {
				t.Errorf("%s %q: done = %v", api, raw, d)
			}
		}
	}
}

func TestStepCap(t *testing.T) {
	var steps []fakemodel.Step
	for range 20 {
		steps = append(steps, fakemodel.Step{Calls: []fakemodel.Call{call("", "list_dir", `{}`)}, In: 10, Out: 5})
	}
	r := runWith(t, "anthropic", []any{caps{steps: 7, tokens: 1 << 30}}, nil, steps...)
	if r.res.Reason != "step_limit" || r.res.Steps != 7 || len(r.reqs) != 7 {
		t.Fatalf("reason=%q steps=%d requests=%d; want step_limit after 7", r.res.Reason, r.res.Steps, len(r.reqs))
	}
	d := r.ofType("done")
	if len(d) != 1 || d[0]["steps"] != float64(7) || d[0]["reason"] != "step_limit" {
		t.Errorf("done = %v", d)
	}
}

func TestTokenCap(t *testing.T) {
	var steps []fakemodel.Step
	for range 5 {
		steps = append(steps, fakemodel.Step{Calls: []fakemodel.Call{call("", "list_dir", `{}`)}, In: 25000, Out: 100})
	}
	r := runWith(t, "openai", []any{caps{steps: 100, tokens: 60000}}, nil, steps...)
	if r.res.Reason != "token_limit" || r.res.Steps != 3 || r.res.Usage.Total() != 75300 {
		t.Fatalf("reason=%q steps=%d usage=%v; want token_limit after 3 steps", r.res.Reason, r.res.Steps, r.res.Usage)
	}
}

// Every honest token_budget.go stops a run that would go on for ever, at
// its own limit, and says which limit it was; it does not stop a short run.
func TestEditableBudgetStopsAtItsOwnLimit(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   int
	}{{"many small steps", 1}, {"few large steps", 400000}} {
		t.Run(tc.name, func(t *testing.T) {
			var steps []fakemodel.Step
			for range 1000 {
				steps = append(steps, fakemodel.Step{Calls: []fakemodel.Call{call("", "list_dir", `{}`)}, In: tc.in, Out: 1})
			}
			r := runScript(t, "openai", nil, steps...)
			limit := r.res.Reason == "step_limit" || r.res.Reason == "token_limit"
			if !limit || r.res.Steps != len(r.reqs) || len(r.reqs) >= 1000 {
				t.Fatalf("reason=%q steps=%d requests=%d; want a budget's reason before the script ends",
					r.res.Reason, r.res.Steps, len(r.reqs))
			}
			if d := r.ofType("done"); len(d) != 1 || d[0]["reason"] != r.res.Reason || d[0]["steps"] != float64(r.res.Steps) {
				t.Errorf("done = %v; want the reason and the steps", d)
			}
		})
	}
	short := runScript(t, "openai", nil, fakemodel.Step{Calls: []fakemodel.Call{call("", "list_dir", `{}`)}, In: 10, Out: 5},
		fakemodel.Step{Text: "done", In: 10, Out: 5})
	if short.res.Reason != "completed" {
		t.Errorf("a two-step run stopped: %q", short.res.Reason)
	}
}

// Every honest truncation.go cuts a long result once, says so, keeps the
// cut the same in later requests, and the trace keeps the whole result.
func TestLargeResultTruncatedOnce(t *testing.T) {
	big := strings.Repeat("0123456789abcdef\n", 1<<20/17+1)
	for _, api := range apis {
		t.Run(api, func(t *testing.T) {
			r := runScript(t, api, func(root string) { os.WriteFile(filepath.Join(root, "big.txt"), []byte(big), 0o644) },
				fakemodel.Step{Calls: []fakemodel.Call{call("c1", "read_file", `{"path":"big.txt"}`)}},
				fakemodel.Step{Calls: []fakemodel.Call{call("c2", "list_dir", `{}`)}},
				fakemodel.Step{Text: "done"})
			shown := toolResults(t, r.reqs[1])[0][1]
			if len(shown) >= len(big)/2 || !strings.Contains(shown, "truncated") {
				t.Fatalf("a 1 MiB result is shown as %d chars; want it cut, saying so", len(shown))
			}
			if later := toolResults(t, r.reqs[2])[0][1]; later != shown {
				t.Error("the truncated result changed in a later request")
			}
			res := r.ofType("tool_result")[0]
			if res["truncated"] != true || res["result"] != big {
				t.Errorf("trace must keep the full result and mark it truncated")
			}
		})
	}
}

func TestMessagesAreAppendOnly(t *testing.T) {
	// Each request's message list must be a byte-identical prefix of the
	// next one, so a local server can reuse its KV cache.
	for _, api := range apis {
		t.Run(api, func(t *testing.T) {
			r := runScript(t, api, func(root string) { os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n"), 0o644) },
				fakemodel.Step{Text: "looking", Calls: []fakemodel.Call{call("c1", "list_dir", `{}`), call("c2", "read_file", `{"path":"a.go"}`)}},
				fakemodel.Step{Calls: []fakemodel.Call{call("c3", "nope", `{}`)}},
				fakemodel.Step{Calls: []fakemodel.Call{call("c4", "write_file", `{"path":"a.go","content":"package a\n// ok\n"}`)}},
				fakemodel.Step{Calls: []fakemodel.Call{call("c5", "run_tests", `{}`)}},
				fakemodel.Step{Text: "done"})
			if len(r.reqs) != 5 {
				t.Fatalf("requests = %d", len(r.reqs))
			}
			for i := 1; i < len(r.reqs); i++ {
				prev, next := r.reqs[i-1].Messages(), r.reqs[i].Messages()
				if len(next) <= len(prev) {
					t.Fatalf("request %d has %d messages, previous %d", i, len(next), len(prev))
				}
				for j := range prev {
					if !bytes.Equal(prev[j], next[j]) {
						t.Fatalf("request %d rewrote message %d:\n%s\n%s", i, j, prev[j], next[j])
					}
				}
			}
		})
	}
}

func TestPanickingToolBecomesResult(t *testing.T) {
	srv, _ := fakemodel.Start(fakemodel.Step{Calls: []fakemodel.Call{call("c1", "boom", `{}`)}}, fakemodel.Step{Text: "ok"})
	defer srv.Close()
	tp := filepath.Join(t.TempDir(), "trace.jsonl")
	tw, _ := trace.Open(tp)
	boom := core.Tool{Spec: core.Spec{Name: "boom", Parameters: []byte(`{"type":"object"}`)},
		Run: func(map[string]any, *core.Context) string { panic("kaboom") }}
	res := Run(context.Background(), Config{Model: model.New(model.Config{API: "openai", URL: srv.URL}), Prompt: "p", Root: t.TempDir(), Trace: tw, Tools: []core.Tool{boom}})
	got := toolResults(t, srv.Requests()[1])
	if res.Reason != "completed" || len(got) != 1 || !strings.Contains(got[0][1], "crashed: kaboom") {
		t.Fatalf("reason=%q observations=%v", res.Reason, got)
	}
	tw.Close()
	var panics []map[string]any
	for _, e := range readTrace(t, tp) {
		if e["type"] == "error" {
			panics = append(panics, e)
		}
	}
	if len(panics) != 1 || panics[0]["step"] != nil || !strings.Contains(panics[0]["message"].(string), "tool boom panic: kaboom") {
		t.Errorf("trace errors = %v, want one, without a step, naming the panic", panics)
	}
}

func TestRunTestsTool(t *testing.T) {
	root := t.TempDir()
	rt := Tools()[2]
	ctx := &core.Context{Root: root, Name: "run_tests", TestCommand: "echo hello; for i in $(seq 3000); do echo line$i; done; exit 3"}
	out := rt.Run(map[string]any{}, ctx)
	// Every honest run_tests.go keeps the end of the output (where a test
	// runner's summary is) and the exit status, and says when it cut.
	if !strings.Contains(out, "line3000") || !strings.Contains(out, "exit status 3") {
		t.Errorf("run_tests output does not keep the tail and status:\n%.200s", out)
	}
	if !strings.Contains(out, "\nhello\n") && !strings.Contains(out, "omitted") && !strings.Contains(out, "truncated") {
		t.Errorf("run_tests cut the output's head without saying so:\n%.200s", out)
	}
	ctx.TestCommand = ""
	if out := rt.Run(map[string]any{}, ctx); !strings.HasPrefix(out, "error:") {
		t.Errorf("no test command: %q", out)
	}
}
