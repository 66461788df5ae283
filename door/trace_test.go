package door

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// oldTrace is written as the loop wrote traces before its events had types
// (keys sorted), with lines a hostile harness or a killed run leaves.
var oldTrace = []string{
	`{"attempt":1,"n_messages":2,"step":1,"ts":"2026-01-02T03:04:05Z","type":"model_call"}`,
	`{"step":1,"stop_reason":"tool_calls","text":"Looking.","tool_calls":[{"id":"c1","name":"read_file","args":{"path":"a.go"}}],"ts":"2026-01-02T03:04:05Z","type":"model_reply","usage":{"input":5,"output":2}}`,
	`{"args":"{\"path\":\"a.go\"}","id":"c1","name":"read_file","step":1,"ts":"2026-01-02T03:04:05Z","type":"tool_call"}`,
	`{"id":"c1","name":"read_file","result":"package a\n","shown_chars":4,"step":1,"truncated":true,"ts":"2026-01-02T03:04:05Z","type":"tool_result"}`,
	`{"args":"{}","id":"c2","name":"rm","step":1,"ts":"2026-01-02T03:04:05Z","type":"tool_call"}`,
	`{"id":"c2","name":"rm","rejected":true,"result":"error: unknown tool","step":1,"truncated":false,"ts":"2026-01-02T03:04:05Z","type":"tool_result"}`,
	`not json`,
	`{"type":"note","text":"a tool's own event"}`,
	`{"message":"model: http 429: budget_exhausted","step":2,"ts":"2026-01-02T03:04:05Z","type":"error"}`,
	`{"step":2,"stop_reason":"stop","text":"","tool_calls":null,"ts":"2026-01-02T03:04:05Z","type":"model_reply","usage":{"input":1,"output":1}}`,
	`{"reason":"completed","steps":2,"ts":"2026-01-02T03:04:05Z","type":"done","usage":{"input":6,"output":3}}`,
	`{"type":"model_reply","text":"cut sh`,
}

func TestFromTraceReadsOldTraces(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	os.WriteFile(path, []byte(strings.Join(oldTrace, "\n")), 0o600)
	rec := &Record{TracePath: path}
	refused, _ := fromTrace(rec)
	want := &Record{TracePath: path, Outcome: "completed", Answer: "Looking.", Steps: 2, Tokens: 9, TokensIn: 6, TokensOut: 3,
		Calls: []Call{
			{ID: "c1", Name: "read_file", Args: `{"path":"a.go"}`, Observation: "package a\n", Truncated: true},
			{ID: "c2", Name: "rm", Args: `{}`, Observation: "error: unknown tool", Rejected: true},
		}}
	if !refused || !reflect.DeepEqual(rec, want) {
		t.Errorf("fromTrace: refused %v, record\n%+v\nwant refused and\n%+v", refused, rec, want)
	}

	empty := &Record{TracePath: filepath.Join(t.TempDir(), "none.jsonl")}
	if refused, _ := fromTrace(empty); refused || empty.Outcome != "no result" {
		t.Errorf("no trace: outcome %q", empty.Outcome)
	}
}

func TestDescribe(t *testing.T) {
	want := map[int]string{
		2:  `  step 1: read_file {"path":"a.go"}`,
		4:  `  step 1: rm {}`,
		8:  `  error: model: http 429: budget_exhausted`,
		10: `  done: completed after 2 steps (step 2: the answer)`,
	}
	for i, line := range oldTrace {
		if got := describe(line + "\n"); got != want[i] {
			t.Errorf("describe(%s) = %q, want %q", line, got, want[i])
		}
	}
	for line, want := range map[string]string{
		`{"type":"done","steps":1,"reason":"completed"}`:   `  done: completed after 1 step (step 1: the answer)`,
		`{"type":"done","steps":1,"reason":"max_steps"}`:   `  done: max_steps after 1 step`,
		`{"type":"done","steps":0,"reason":"model_error"}`: `  done: model_error after 0 steps`,
	} {
		if got := describe(line + "\n"); got != want {
			t.Errorf("describe(%s) = %q, want %q", line, got, want)
		}
	}
}

// TestClip: a line too long is cut at a word's end, or inside a long word at
// a character's start, never in a UTF-8 sequence, and marked with an ellipsis.
func TestClip(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short line", 20, "short line"},
		{"missing go.sum entry for module providing package", 30, "missing go.sum entry for…"},
		{"x  y\n z", 10, "x y z"},
		{strings.Repeat("a", 40), 10, strings.Repeat("a", 10) + "…"},
		{"ééééé", 5, "éé…"},
	} {
		if got := Clip(c.in, c.n); got != c.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
