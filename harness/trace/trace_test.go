package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"ratchet/harness/core"
)

// written opens a trace in a temporary folder, lets f write to it and
// returns the file's bytes.
func written(t *testing.T, f func(w *Writer)) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	w.now = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC) }
	f(w)
	w.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func intp(n int) *int { return &n }

// sample has one event of every kind, and of every shape a kind has.
var sample = []Event{
	ModelCall{Step: 1, NMessages: 2, Attempt: 1},
	ModelReply{Step: 1, Text: "Reading.", ToolCalls: []core.ToolCall{{ID: "c1", Name: "read_file", Args: json.RawMessage(`{"path":"a.go"}`)}},
		Usage: core.Usage{Input: 100, Output: 7}, StopReason: "tool_calls"},
	ModelReply{Step: 2, Text: "done", Usage: core.Usage{Input: 1, Output: 1}, StopReason: "stop"},
	ToolCall{Step: 1, ID: "c1", Name: "read_file", Args: `{"path":"a.go"}`},
	ToolResult{Step: 1, ID: "c1", Name: "read_file", Result: "package a\n"},
	ToolResult{Step: 1, ID: "c2", Name: "read_file", Result: strings.Repeat("x", 9000), Truncated: true, ShownChars: intp(6000)},
	ToolResult{Step: 1, ID: "c3", Name: "read_file", Result: "x", Truncated: true, ShownChars: intp(0)},
	ToolResult{Step: 1, ID: "c4", Name: "rm", Result: `error: unknown tool "rm"`, Rejected: true},
	Error{Step: 3, Message: "model: http 500: boom"},
	Error{Message: "tool boom panic: kaboom"},
	Done{Steps: 2, Reason: "completed", Usage: core.Usage{Input: 101, Output: 8}},
}

func TestRoundTrip(t *testing.T) {
	b := written(t, func(w *Writer) {
		for _, e := range sample {
			w.Emit(e)
		}
	})
	lines, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != len(sample) {
		t.Fatalf("read %d lines, wrote %d", len(lines), len(sample))
	}
	for i, l := range lines {
		want := sample[i]
		if l.Err != nil || !reflect.DeepEqual(l.Event, want) {
			t.Errorf("line %d: %#v (err %v), want %#v", i, l.Event, l.Err, want)
		}
		if l.Type != want.Type() || l.TS != "2026-01-02T03:04:05.000000006Z" {
			t.Errorf("line %d: type %q ts %q", i, l.Type, l.TS)
		}
	}
}

// TestKeysAreTheHistoricalOnes writes each event both typed and the way the
// loop wrote it before events had types (fields in a map, copied from the
// old loop), and wants the same keys with the same JSON values: readers of
// old traces, the dashboard's script among them, see no difference.
func TestKeysAreTheHistoricalOnes(t *testing.T) {
	calls := []core.ToolCall{{ID: "c1", Name: "read_file", Args: json.RawMessage(`{"path":"a.go"}`)}}
	usage := core.Usage{Input: 100, Output: 7}
	cases := []struct {
		typed  Event
		typ    string
		fields map[string]any
		keys   string
	}{
		{ModelCall{Step: 1, NMessages: 2, Attempt: 1},
			"model_call", map[string]any{"step": 1, "n_messages": 2, "attempt": 1},
			"attempt n_messages step ts type"},
		{ModelReply{Step: 1, Text: "t", ToolCalls: calls, Usage: usage, StopReason: "tool_calls"},
			"model_reply", map[string]any{"step": 1, "text": "t", "tool_calls": calls, "usage": usage, "stop_reason": "tool_calls"},
			"step stop_reason text tool_calls ts type usage"},
		{ModelReply{Step: 1, Text: "t", Usage: usage, StopReason: "stop"},
			"model_reply", map[string]any{"step": 1, "text": "t", "tool_calls": []core.ToolCall(nil), "usage": usage, "stop_reason": "stop"},
			"step stop_reason text tool_calls ts type usage"},
		{ToolCall{Step: 1, ID: "c1", Name: "read_file", Args: `{"path":"a.go"}`},
			"tool_call", map[string]any{"step": 1, "id": "c1", "name": "read_file", "args": string(calls[0].Args)},
			"args id name step ts type"},
		{ToolResult{Step: 1, ID: "c1", Name: "read_file", Result: "r"},
			"tool_result", map[string]any{"step": 1, "id": "c1", "name": "read_file", "result": "r", "truncated": false},
			"id name result step truncated ts type"},
		{ToolResult{Step: 1, ID: "c1", Name: "read_file", Result: "rr", Truncated: true, ShownChars: intp(1)},
			"tool_result", map[string]any{"step": 1, "id": "c1", "name": "read_file", "result": "rr", "truncated": true, "shown_chars": 1},
			"id name result shown_chars step truncated ts type"},
		{ToolResult{Step: 1, ID: "c1", Name: "read_file", Result: "rr", Truncated: true, ShownChars: intp(0)},
			"tool_result", map[string]any{"step": 1, "id": "c1", "name": "read_file", "result": "rr", "truncated": true, "shown_chars": 0},
			"id name result shown_chars step truncated ts type"},
		{ToolResult{Step: 1, ID: "c1", Name: "rm", Result: "error: no", Rejected: true},
			"tool_result", map[string]any{"step": 1, "id": "c1", "name": "rm", "result": "error: no", "truncated": false, "rejected": true},
			"id name rejected result step truncated ts type"},
		{Error{Step: 2, Message: "model: boom"},
			"error", map[string]any{"step": 2, "message": "model: boom"},
			"message step ts type"},
		{Error{Message: "tool boom panic: kaboom"},
			"error", map[string]any{"message": "tool boom panic: kaboom"},
			"message ts type"},
		{Done{Steps: 2, Reason: "completed", Usage: usage},
			"done", map[string]any{"steps": 2, "reason": "completed", "usage": usage},
			"reason steps ts type usage"},
	}
	for _, c := range cases {
		b := written(t, func(w *Writer) {
			w.Emit(c.typed)
			w.Event(c.typ, c.fields)
		})
		var typed, old map[string]any
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if len(lines) != 2 || json.Unmarshal([]byte(lines[0]), &typed) != nil || json.Unmarshal([]byte(lines[1]), &old) != nil {
			t.Fatalf("%s: the trace is not two JSON lines:\n%s", c.typ, b)
		}
		if keys := strings.Join(slices.Sorted(maps.Keys(typed)), " "); keys != c.keys {
			t.Errorf("%s: keys %q, want %q", c.typ, keys, c.keys)
		}
		if !reflect.DeepEqual(typed, old) {
			t.Errorf("%s: typed event\n%s\nthe old loop wrote\n%s", c.typ, lines[0], lines[1])
		}
	}
}

func TestEventThatCannotBeEncodedBecomesAnError(t *testing.T) {
	// A model may send arguments that are not JSON; encoding them as raw
	// JSON fails, and the trace says so instead of losing the line.
	b := written(t, func(w *Writer) {
		w.Emit(ModelReply{Step: 1, ToolCalls: []core.ToolCall{{ID: "c1", Name: "write_file", Args: json.RawMessage(`{"path": `)}}})
	})
	lines, _ := Read(bytes.NewReader(b))
	if len(lines) != 1 {
		t.Fatalf("lines = %d", len(lines))
	}
	e, ok := lines[0].Event.(Error)
	if !ok || !strings.HasPrefix(e.Message, "trace: ") || e.Step != 0 {
		t.Errorf("event = %#v, want an Error saying the trace could not encode it", lines[0].Event)
	}
}

func TestNilWriterWritesNothing(t *testing.T) {
	var w *Writer
	w.Emit(Done{})
	w.Event("note", nil)
}

func TestReadTolerance(t *testing.T) {
	trace := strings.Join([]string{
		`{"ts":"t1","type":"model_call","step":1,"n_messages":2,"attempt":1}`,
		`not json at all`,
		``,
		`{"ts":"t2","type":"note","step":4,"what":"a tool's own event"}`,
		`{"type":"model_call","step":"one"}`,
		`{"type":7,"step":1}`,
		`[1,2,3]`,
		`null`,
		`{"ts":"t3","type":"done","steps":1,"reason":"completed","usage":{"input":1,"output":2},"extra":"ignored"}`,
		`{"ts":"t4","type":"tool_result","step":2,"id":"c9","result":"cut sho`,
	}, "\n")
	lines, err := Read(strings.NewReader(trace))
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		typ   Type
		event Event
		err   bool
	}
	wants := []want{
		{TypeModelCall, ModelCall{Step: 1, NMessages: 2, Attempt: 1}, false},
		{"", nil, true},
		{"", nil, true},
		{"note", nil, true},
		{TypeModelCall, nil, true},
		{"", nil, true},
		{"", nil, true},
		{"", nil, true},
		{TypeDone, Done{Steps: 1, Reason: "completed", Usage: core.Usage{Input: 1, Output: 2}}, false},
		{"", nil, true},
	}
	if len(lines) != len(wants) {
		t.Fatalf("read %d lines, want %d", len(lines), len(wants))
	}
	raw := strings.Split(trace, "\n")
	for i, w := range wants {
		l := lines[i]
		if l.Type != w.typ || !reflect.DeepEqual(l.Event, w.event) || (l.Err != nil) != w.err || string(l.Raw) != raw[i] {
			t.Errorf("line %d %q: type %q event %#v err %v; want type %q event %#v, an error: %v", i, raw[i], l.Type, l.Event, l.Err, w.typ, w.event, w.err)
		}
	}
	if !errors.Is(lines[3].Err, ErrUnknownType) {
		t.Errorf("an unknown type's error is %v", lines[3].Err)
	}
}

func TestReadBoundsEachLine(t *testing.T) {
	long := `{"type":"error","message":"` + strings.Repeat("m", 100) + `"}`
	lines, err := read(strings.NewReader(long+"\n"+`{"type":"done","steps":3}`+"\n"+long), 40)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 3 {
		t.Fatalf("read %d lines, want 3", len(lines))
	}
	for _, i := range []int{0, 2} {
		if len(lines[i].Raw) != 40 || lines[i].Event != nil || !errors.Is(lines[i].Err, ErrLineTooLong) {
			t.Errorf("line %d: %d bytes kept, event %v, err %v; want 40, none, too long", i, len(lines[i].Raw), lines[i].Event, lines[i].Err)
		}
	}
	if d, ok := lines[1].Event.(Done); !ok || d.Steps != 3 {
		t.Errorf("the line after a long one: %#v", lines[1].Event)
	}
}

// A header key holding a huge list is skipped over, never built: decoded
// into an any, a 64 MiB line of zeros took gigabytes of the reader's memory
// (the door reads traces a harness wrote). Here 8 MiB of them may cost the
// reader a few times the line, not fifty.
func TestParseDoesNotBuildHugeHeaders(t *testing.T) {
	line := []byte(`{"ts":[` + strings.Repeat("0,", 4<<20) + `0],"type":"done","steps":1}`)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	l := Parse(line)
	runtime.ReadMemStats(&after)
	if d, ok := l.Event.(Done); !ok || d.Steps != 1 || l.TS != "" {
		t.Errorf("the line read as %#v, ts %q", l.Event, l.TS)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 4*uint64(len(line)) {
		t.Errorf("parsing a %d-byte line allocated %d bytes", len(line), n)
	}
}

func TestReadPassesOnReadErrors(t *testing.T) {
	broken := errors.New("disk on fire")
	lines, err := Read(failing{strings.NewReader(`{"type":"done","steps":1}` + "\n"), broken})
	if !errors.Is(err, broken) || len(lines) != 1 {
		t.Errorf("lines %d, err %v; want the line before the failure and the failure", len(lines), err)
	}
}

// failing is a reader that returns err once r is spent.
type failing struct {
	r   *strings.Reader
	err error
}

func (f failing) Read(p []byte) (int, error) {
	if f.r.Len() == 0 {
		return 0, f.err
	}
	return f.r.Read(p)
}

// FuzzRead feeds the reader arbitrary bytes: it must not panic, must keep
// each line within the limit, and must say why any line has no event.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"type":"tool_result","step":1,"shown_chars":null,"truncated":"yes"}` + "\n\xff\n"))
	f.Add([]byte(`{"type":"model_reply","tool_calls":[{"args":{}},7],"usage":[]}`))
	f.Add([]byte(`{"type":"done","steps":1e400}` + "\n\n\n{"))
	f.Fuzz(func(t *testing.T, b []byte) {
		lines, err := read(bytes.NewReader(b), 64)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			if len(l.Raw) > 64 || (l.Event == nil) == (l.Err == nil) {
				t.Fatalf("line %q: %d bytes, event %#v, err %v", l.Raw, len(l.Raw), l.Event, l.Err)
			}
		}
	})
}
