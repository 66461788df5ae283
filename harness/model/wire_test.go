package model_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ratchet/harness/core"
	"ratchet/harness/fakemodel"
	"ratchet/harness/model"
)

// The files in testdata are of two kinds (see testdata/README.md): replies
// and streams written by hand in the shapes the providers document, which
// -update never touches, and golden files the tests compare against, which
// `go test ./model/ -update` rewrites from what the code does now.
var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// conversation is one of each message kind the client must encode: system
// prompt, user prompt, an assistant turn with text and two calls, their two
// results, an assistant turn with a call and no text, and its result.
var conversation = []core.Message{
	{Role: core.System, Content: "You fix Go code. Use the tools."},
	{Role: core.User, Content: "Mean gives wrong answers. Fix it."},
	{Role: core.Assistant, Content: "Reading the file first.", ToolCalls: []core.ToolCall{
		{ID: "call_1", Name: "read_file", Args: json.RawMessage(`{"path": "stats/stats.go"}`)},
		{ID: "call_2", Name: "run_tests", Args: json.RawMessage(`{}`)},
	}},
	{Role: core.ToolRole, ToolCallID: "call_1", ToolName: "read_file", Content: "package stats\n"},
	{Role: core.ToolRole, ToolCallID: "call_2", ToolName: "run_tests", Content: "FAIL\texample.com/stats\n"},
	{Role: core.Assistant, ToolCalls: []core.ToolCall{
		{ID: "call_3", Name: "write_file", Args: json.RawMessage(`{"path":"stats/stats.go","content":"package stats\n"}`)},
	}},
	{Role: core.ToolRole, ToolCallID: "call_3", ToolName: "write_file", Content: "wrote 14 bytes"},
}

var readFile = core.Spec{
	Name:        "read_file",
	Description: "Read a file of the task tree.",
	Parameters:  json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`),
}

// replyFor is a documented reply of each format, sent back to requests.
var replyFor = map[string]string{"openai": "openai/reply_text.json", "anthropic": "anthropic/reply_text.json"}

// TestRequestGolden sends the conversation through the real client over
// loopback HTTP and compares the request line, the headers the client sets
// and the exact body bytes with testdata/<api>/request*.http.
func TestRequestGolden(t *testing.T) {
	tests := []struct {
		api, golden, options string
	}{
		{"openai", "openai/request.http", ""},
		{"openai", "openai/request_options.http", `{"options":{"num_ctx":8192},"temperature":0.5}`},
		{"anthropic", "anthropic/request.http", ""},
		{"anthropic", "anthropic/request_options.http", `{"top_k":1,"temperature":0.5}`},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			var got *http.Request
			var body []byte
			reply := readTestdata(t, replyFor[tt.api])
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got = r
				body, _ = io.ReadAll(r.Body)
				w.Header().Set("Content-Type", "application/json")
				w.Write(reply)
			}))
			defer srv.Close()
			cfg := model.Config{API: tt.api, URL: srv.URL, Name: "frozen-model", Key: "sk-test-123"}
			if tt.options != "" {
				cfg.Options = json.RawMessage(tt.options)
			}
			if _, err := model.New(cfg).Chat(context.Background(), conversation, []core.Spec{readFile}); err != nil {
				t.Fatal(err)
			}
			var head bytes.Buffer
			fmt.Fprintf(&head, "%s %s\n", got.Method, got.URL.Path)
			for _, k := range []string{"Anthropic-Version", "Authorization", "Content-Type", "X-Api-Key"} {
				if v := got.Header.Get(k); v != "" {
					fmt.Fprintf(&head, "%s: %s\n", k, v)
				}
			}
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, body, "", "  "); err != nil {
				t.Fatalf("the body is not JSON: %v\n%s", err, body)
			}
			golden := filepath.Join("testdata", tt.golden)
			if *update {
				writeTestdata(t, golden, head.String()+"\n"+pretty.String()+"\n")
				return
			}
			wantHead, wantBody, ok := strings.Cut(string(readTestdata(t, tt.golden)), "\n\n")
			if !ok {
				t.Fatalf("%s has no blank line between headers and body", golden)
			}
			if gotHead := strings.TrimSuffix(head.String(), "\n"); gotHead != wantHead {
				t.Errorf("request head:\n%s\nwant (%s):\n%s", gotHead, golden, wantHead)
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, []byte(wantBody)); err != nil {
				t.Fatalf("%s: body is not JSON: %v", golden, err)
			}
			if !bytes.Equal(body, compact.Bytes()) {
				t.Errorf("request body differs from %s (run go test ./model/ -update and review the diff):\n got %s\nwant %s", golden, body, compact.Bytes())
			}
		})
	}
}

// TestReplyGolden decodes the documented replies and error bodies of both
// formats and compares the result with testdata/<api>/<reply>.want.json.
func TestReplyGolden(t *testing.T) {
	tests := []struct {
		api, reply string
		status     int
	}{
		{"openai", "openai/reply_text.json", 200},
		{"openai", "openai/reply_tool_calls.json", 200},
		{"openai", "openai/reply_object_arguments.json", 200},
		{"openai", "openai/error_429.json", 429},
		{"anthropic", "anthropic/reply_text.json", 200},
		{"anthropic", "anthropic/reply_tool_use.json", 200},
		{"anthropic", "anthropic/error_529.json", 529},
	}
	for _, tt := range tests {
		t.Run(tt.reply, func(t *testing.T) {
			raw := readTestdata(t, tt.reply)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tt.status)
				w.Write(raw)
			}))
			defer srv.Close()
			// A failed request is compared as the *core.ModelError it returns.
			var result any
			reply, err := model.New(model.Config{API: tt.api, URL: srv.URL, Name: "m"}).Chat(context.Background(), conversation[:2], nil)
			switch merr, ok := err.(*core.ModelError); {
			case err == nil:
				result = reply
			case ok && tt.status != 200:
				result = merr
			default:
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(result, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(tt.reply, ".json") + ".want.json"
			if *update {
				writeTestdata(t, filepath.Join("testdata", golden), string(got))
				return
			}
			if want := readTestdata(t, golden); !bytes.Equal(got, want) {
				t.Errorf("decoded reply:\n%s\nwant (testdata/%s):\n%s", got, golden, want)
			}
		})
	}
}

// TestFakeModelSpeaksTheDocumentedShapes checks that the scripted server the
// other tests rely on sends nothing the providers do not document: every
// field it sends, with its JSON type, occurs in the documented fixtures, and
// its streams are framed as the providers frame them.
func TestFakeModelSpeaksTheDocumentedShapes(t *testing.T) {
	step := fakemodel.Step{
		Text:  "Reading the file.",
		Calls: []fakemodel.Call{{ID: "call_1", Name: "read_file", Args: `{"path":"stats/stats.go"}`}},
		In:    912, Out: 24, CacheRead: 100,
	}
	srv, err := fakemodel.Start(step, step, step, step, fakemodel.Step{Text: "done", In: 1, Out: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	post := func(path, body string) []byte {
		t.Helper()
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name, path, body string
		stream           bool
		documented       []string
	}{
		{"openai reply", "/v1/chat/completions", `{}`, false,
			[]string{"openai/reply_text.json", "openai/reply_tool_calls.json"}},
		{"openai stream", "/v1/chat/completions", `{"stream":true,"stream_options":{"include_usage":true}}`, true,
			[]string{"openai/stream.sse"}},
		{"anthropic reply", "/v1/messages", `{}`, false,
			[]string{"anthropic/reply_text.json", "anthropic/reply_tool_use.json"}},
		{"anthropic stream", "/v1/messages", `{"stream":true}`, true,
			[]string{"anthropic/stream.sse"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			allowed := map[string]bool{}
			for _, f := range tt.documented {
				for _, p := range shapeOf(t, f, readTestdata(t, f), tt.stream) {
					allowed[p] = true
				}
			}
			sent := shapeOf(t, "fakemodel "+tt.name, post(tt.path, tt.body), tt.stream)
			if len(sent) == 0 {
				t.Fatal("the fake model sent nothing")
			}
			for _, p := range sent {
				if !allowed[p] {
					t.Errorf("the fake model sends %s, which %v do not have", p, tt.documented)
				}
			}
		})
	}
}

// shapeOf returns the sorted field paths of a reply, or of every event of a
// stream, each with the JSON type of its value; stream paths start with the
// event's type, so that fields are compared per kind of event. A null value
// matches any type and contributes only its path's parent.
func shapeOf(t *testing.T, name string, raw []byte, stream bool) []string {
	t.Helper()
	docs := []sseEvent{{"reply", raw}}
	if stream {
		docs = events(t, name, raw)
	}
	set := map[string]bool{}
	for _, d := range docs {
		var v any
		if err := json.Unmarshal(d.data, &v); err != nil {
			t.Fatalf("%s: %s is not JSON: %v", name, d.data, err)
		}
		walk(d.kind, v, set)
	}
	var out []string
	for p := range set {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

func walk(path string, v any, set map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		set[path+":object"] = true
		for k, e := range v {
			walk(path+"."+k, e, set)
		}
	case []any:
		set[path+":array"] = true
		for _, e := range v {
			walk(path+"[]", e, set)
		}
	case string:
		set[path+":string"] = true
	case float64:
		set[path+":number"] = true
	case bool:
		set[path+":bool"] = true
	}
}

// sseEvent is one event of a stream: its kind (the event name, or "chunk"
// for OpenAI's unnamed events) and its JSON data.
type sseEvent struct {
	kind string
	data []byte
}

// events splits a server-sent event stream. An Anthropic event's name must
// equal its data's "type"; an OpenAI stream must end with "data: [DONE]".
func events(t *testing.T, name string, raw []byte) []sseEvent {
	t.Helper()
	var out []sseEvent
	var eventName string
	done := false
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			eventName = ""
		case strings.HasPrefix(line, "event: "):
			eventName = strings.TrimPrefix(line, "event: ")
		case line == "data: [DONE]":
			done = true
		case strings.HasPrefix(line, "data: "):
			if done {
				t.Errorf("%s: data after [DONE]: %s", name, line)
			}
			data := []byte(strings.TrimPrefix(line, "data: "))
			var typ struct {
				Type string `json:"type"`
			}
			json.Unmarshal(data, &typ)
			kind := "chunk"
			if eventName != "" {
				if typ.Type != eventName {
					t.Errorf("%s: event %q carries type %q", name, eventName, typ.Type)
				}
				kind = eventName
			}
			out = append(out, sseEvent{kind, data})
		default:
			t.Errorf("%s: unexpected line %q", name, line)
		}
	}
	if len(out) > 0 && out[0].kind == "chunk" && !done {
		t.Errorf("%s: the stream does not end with data: [DONE]", name)
	}
	return out
}

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("%v (run go test ./model/ -update to create golden files)", err)
	}
	return b
}

func writeTestdata(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
