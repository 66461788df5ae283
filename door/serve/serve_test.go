package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"ratchet/door"
	"ratchet/door/doortest"
	"ratchet/harness/fakemodel"
)

const token = "test-token"

// start serves a door whose roots are the test's temporary folders.
func start(t *testing.T, with ...func(*door.Config)) (*httptest.Server, *door.Door) {
	return startOn(t, doortest.Fixer, with...)
}

func startOn(t *testing.T, step func(fakemodel.Request) fakemodel.Step, with ...func(*door.Config)) (*httptest.Server, *door.Door) {
	d, _ := doortest.Open(t, step, false, append([]func(*door.Config){func(c *door.Config) { c.Roots = []string{os.TempDir()} }}, with...)...)
	srv := httptest.NewUnstartedServer(nil)
	srv.Config.Handler = Handler{Door: d, Token: token, Hosts: []string{srv.Listener.Addr().String()}}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, d
}

func fixedIn(t *testing.T, proj string) {
	t.Helper()
	if b, _ := os.ReadFile(filepath.Join(proj, "m.go")); string(b) != doortest.Fixed {
		t.Fatalf("the project was not fixed:\n%s", b)
	}
}

func TestOpenAIClient(t *testing.T) {
	t.Parallel()
	srv, d := start(t)
	proj := doortest.Project(t)
	client := openai.NewClient(option.WithBaseURL(srv.URL+"/v1/"), option.WithAPIKey(token), option.WithHeader("X-Ratchet-Project", proj), option.WithMaxRetries(0))
	resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    "ratchet",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.SystemMessage("be brief"), openai.UserMessage("Double is wrong; fix it.")},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := resp.Choices[0].Message.Content
	if !strings.Contains(got, "Fixed Double") || !strings.Contains(got, "files changed: m.go") || !strings.Contains(got, "tests after: pass") {
		t.Errorf("reply = %q", got)
	}
	fixedIn(t, proj)

	// Streaming: progress arrives as content, then the answer; the session
	// continues through the header, on its own project only.
	ss, _ := d.Sessions()
	proj2 := proj
	stream := client.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{
		Model: "ratchet", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("And this one.")},
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}, option.WithHeader("X-Ratchet-Project", proj2), option.WithHeader("X-Ratchet-Session", ss[0].ID))
	var acc openai.ChatCompletionAccumulator
	chunks := 0
	for stream.Next() {
		acc.AddChunk(stream.Current())
		chunks++
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	content := acc.Choices[0].Message.Content
	if chunks < 4 || !strings.Contains(content, "step 1: write_file") || !strings.Contains(content, "Fixed Double") || acc.Choices[0].FinishReason != "stop" {
		t.Errorf("%d chunks, content %q", chunks, content)
	}
	// include_usage: the client's accumulator reads the last chunk's usage.
	if acc.Usage.TotalTokens == 0 || acc.Usage.TotalTokens != acc.Usage.PromptTokens+acc.Usage.CompletionTokens {
		t.Errorf("a stream with include_usage reported usage %+v", acc.Usage)
	}
	fixedIn(t, proj2)
	if recs, _ := d.Records(ss[0].ID); len(recs) != 2 {
		t.Errorf("the streamed request did not continue the session: %d records", len(recs))
	}

	// A project outside the roots is a clear 403, through the client's error type.
	_, err = client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model: "ratchet", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("x")},
	}, option.WithHeader("X-Ratchet-Project", "/no/such/project"))
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 403 || !strings.Contains(apiErr.Message+apiErr.RawJSON(), "outside the folders") {
		t.Errorf("project outside the roots: %v", err)
	}
}

func TestAsk(t *testing.T) {
	t.Parallel()
	srv, d := start(t)
	proj := doortest.Project(t)
	post := func(body string) (*http.Response, map[string]any) {
		req, _ := http.NewRequest("POST", srv.URL+"/v1/ask", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var v map[string]any
		json.NewDecoder(resp.Body).Decode(&v)
		return resp, v
	}
	b, _ := json.Marshal(door.Request{Project: proj, Text: "Double is wrong; fix it."})
	resp, rec := post(string(b))
	if resp.StatusCode != 200 || rec["outcome"] != "completed" || rec["tests_after"] != "pass" {
		t.Fatalf("%d %v", resp.StatusCode, rec)
	}
	fixedIn(t, proj)
	for body, code := range map[string]int{
		`{"project": "/nope", "request": "x"}`:                                    403,
		`{"project": "` + os.TempDir() + `/nope", "request": "x"}`:                400,
		`{"project": "` + proj + `", "request": "x", "test": "touch /tmp/pwned"}`: 400,
		`not json`: 400,
		`{"project": "` + proj + `", "request": "` + strings.Repeat("x", 70000) + `"}`: 413,
		`{"project": "` + proj + `", "request": "` + strings.Repeat("y", 2<<20) + `"}`: 413,
	} {
		if resp, v := post(body); resp.StatusCode != code || v["error"] == nil {
			t.Errorf("%.40s: %d %v, want %d", body, resp.StatusCode, v, code)
		}
	}
	if ss, _ := d.Sessions(); len(ss) != 1 {
		t.Errorf("bad requests left records: %+v", ss)
	}
	var buf bytes.Buffer
	models, _ := http.NewRequest("GET", srv.URL+"/v1/models", nil)
	models.Header.Set("Authorization", "Bearer "+token)
	r2, _ := http.DefaultClient.Do(models)
	buf.ReadFrom(r2.Body)
	if !strings.Contains(buf.String(), `"ratchet"`) {
		t.Errorf("models: %s", buf.String())
	}
}

func TestClientDisconnectLeavesAWholeRecord(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	srv, d := startOn(t, func(r fakemodel.Request) fakemodel.Step {
		select {
		case <-release:
		case <-time.After(3 * time.Second):
		}
		return doortest.Fixer(r)
	}, func(c *door.Config) { c.Test = "true" })
	proj := doortest.Project(t)
	ctx, cancel := context.WithCancel(context.Background())
	b, _ := json.Marshal(door.Request{Project: proj, Text: "fix it"})
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/v1/ask", bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	go func() { time.Sleep(1200 * time.Millisecond); cancel() }()
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Fatal("the request finished despite the disconnect")
	}
	deadline := time.Now().Add(5 * time.Minute) // the harness build, first, ignores the disconnect
	for time.Now().Before(deadline) {
		if ss, _ := d.Sessions(); len(ss) == 1 {
			recs, _ := d.Records(ss[0].ID)
			if len(recs) != 1 || recs[0].Outcome != "interrupted" || recs[0].Finished == "" {
				t.Fatalf("records = %+v", recs)
			}
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("no whole record 5 minutes after the disconnect")
}

func TestGuardRefusesBeforeReading(t *testing.T) {
	h := Handler{Token: token, Hosts: []string{"127.0.0.1:8765", "localhost:8765", "ok.example"}, Origins: []string{"http://localhost:3000"}}
	tests := []struct {
		name, host, origin, auth, ctype string
		want                            int
	}{
		{"all good", "127.0.0.1:8765", "", "Bearer " + token, "application/json", 0},
		{"charset is fine", "localhost:8765", "", "Bearer " + token, "application/json; charset=utf-8", 0},
		{"allowed host, any port", "ok.example:9", "", "Bearer " + token, "application/json", 0},
		{"allowed origin", "127.0.0.1:8765", "http://localhost:3000", "Bearer " + token, "application/json", 0},
		{"no token", "127.0.0.1:8765", "", "", "application/json", 401},
		{"wrong token", "127.0.0.1:8765", "", "Bearer " + token + "x", "application/json", 401},
		{"basic auth", "127.0.0.1:8765", "", "Basic " + token, "application/json", 401},
		{"foreign host (DNS rebinding)", "evil.example:8765", "", "Bearer " + token, "application/json", 403},
		{"foreign origin", "127.0.0.1:8765", "https://evil.example", "Bearer " + token, "application/json", 403},
		{"null origin", "127.0.0.1:8765", "null", "Bearer " + token, "application/json", 403},
		{"text/plain", "127.0.0.1:8765", "", "Bearer " + token, "text/plain", 415},
		{"form", "127.0.0.1:8765", "", "Bearer " + token, "application/x-www-form-urlencoded", 415},
		{"no content type", "127.0.0.1:8765", "", "Bearer " + token, "", 415},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("POST", "/v1/ask", strings.NewReader("{}"))
		r.Host = tt.host
		for k, v := range map[string]string{"Origin": tt.origin, "Authorization": tt.auth, "Content-Type": tt.ctype} {
			if v != "" {
				r.Header.Set(k, v)
			}
		}
		if got, msg := h.check(r); got != tt.want {
			t.Errorf("%s: %d %q, want %d", tt.name, got, msg, tt.want)
		}
	}
	r := httptest.NewRequest("GET", "/v1/models", nil)
	r.Host = "127.0.0.1:8765"
	r.Header.Set("Authorization", "Bearer ")
	if got, _ := (Handler{Hosts: h.Hosts}).check(r); got != 401 {
		t.Errorf("a handler without a token let an empty one through: %d", got)
	}
}

func TestSummarySaysWhatWasWithheld(t *testing.T) {
	rec := door.Record{Outcome: "completed", Changed: []string{"m.go"}, Withheld: []string{".git/hooks/x"}}
	if got := Summary(rec); !strings.Contains(got, "not written back (dot-paths and links never leave the sandbox): .git/hooks/x") {
		t.Errorf("summary = %q", got)
	}
	if got := Summary(door.Record{Outcome: "completed"}); strings.Contains(got, "not written back") {
		t.Errorf("summary of a request with nothing withheld = %q", got)
	}
}

// A model server that never answers is a failure of the machine at every
// door, as ratchet run's exit status 3 says, never the agent's answer: /v1/ask
// answers 502 with the record and exit_status 3, a chat completion 502 with
// an error, a streamed one ends on an error event. (Issue 36: all three
// said 200, finish_reason "stop", the error text as the reply.)
func TestModelDownIsNeverAnAnswer(t *testing.T) {
	t.Parallel()
	srv, _ := startOn(t, func(fakemodel.Request) fakemodel.Step {
		return fakemodel.Step{Status: http.StatusBadRequest, Body: `{"error":{"message":"model 'scripted' not found"}}`}
	})
	proj := doortest.Project(t)
	post := func(path, body string) (int, string) {
		req, _ := http.NewRequest("POST", srv.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("X-Ratchet-Project", proj)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		return resp.StatusCode, b.String()
	}
	ask, _ := json.Marshal(door.Request{Project: proj, Text: "Double is wrong; fix it."})
	code, body := post("/v1/ask", string(ask))
	var rec struct {
		Outcome    string `json:"outcome"`
		ExitStatus *int   `json:"exit_status"`
	}
	json.Unmarshal([]byte(body), &rec)
	if code != http.StatusBadGateway || rec.ExitStatus == nil || *rec.ExitStatus != 3 {
		t.Errorf("/v1/ask with the model down: %d, outcome %q, exit_status %v; want 502 and 3:\n%.300s", code, rec.Outcome, rec.ExitStatus, body)
	}
	chat := `{"model":"ratchet","messages":[{"role":"user","content":"Double is wrong; fix it."}]}`
	if code, body := post("/v1/chat/completions", chat); code != http.StatusBadGateway || !strings.Contains(body, `"error"`) ||
		!strings.Contains(body, "model gave no answer") || strings.Contains(body, `"finish_reason"`) {
		t.Errorf("a chat completion with the model down: %d\n%.300s", code, body)
	}
	stream := `{"model":"ratchet","stream":true,"messages":[{"role":"user","content":"Double is wrong; fix it."}]}`
	if _, body := post("/v1/chat/completions", stream); !strings.Contains(body, "model gave no answer") ||
		strings.Contains(body, `"finish_reason":"stop"`) {
		t.Errorf("a streamed chat completion with the model down does not end on an error:\n%.600s", body)
	}
}
