package serve_test

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"ratchet/door/doortest"
	"ratchet/harness/fakemodel"
)

// server is a `ratchet serve` process and what it printed at start.
type server struct {
	addr, token string
	stderr      *lockedText
}

// lockedText is text one goroutine appends to while the test reads it.
type lockedText struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedText) WriteString(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.WriteString(s)
}

func (l *lockedText) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var (
	tokenLine = regexp.MustCompile(`ratchet: token (\S+) `)
	addrLine  = regexp.MustCompile(`on http://(\S+)`)
)

// startServe runs the built binary with args and waits for its address and
// token lines on stderr.
func startServe(t *testing.T, bin string, env []string, args ...string) server {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = env
	pipe, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	s := server{stderr: &lockedText{}}
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			s.stderr.WriteString(sc.Text() + "\n")
			if m := tokenLine.FindStringSubmatch(sc.Text()); m != nil {
				s.token = m[1]
			}
			if m := addrLine.FindStringSubmatch(sc.Text()); m != nil {
				s.addr = m[1]
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(60 * time.Second):
		t.Fatalf("ratchet serve did not start:\n%s", s.stderr)
	}
	return s
}

// A hostile caller on the same machine, or a web page through the user's
// browser, gets nothing run: every refusal comes before the agent starts.
func TestServeBinaryRefusesStrangers(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the ratchet binary")
	}
	bin := doortest.Ratchet(t)
	model, err := fakemodel.Start(fixers(50)...)
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	root, outside := t.TempDir(), doortest.Project(t)
	app := filepath.Join(root, "app")
	os.Rename(doortest.Project(t), app)
	os.Symlink(outside, filepath.Join(root, "escape")) // inside by name only
	marker := filepath.Join(t.TempDir(), "marker")
	env := doortest.ModelEnv(model.URL)
	s := startServe(t, bin, env, "--home", t.TempDir(), "--harness", doortest.Harness(), "--project", app, "--root", root,
		"--allow-origin", "http://ok.example")
	if s.token == "" || strings.Count(s.stderr.String(), s.token) != 1 {
		t.Fatalf("the token was not printed exactly once:\n%s", s.stderr)
	}

	ask := `{"project": "` + app + `", "request": "Double is wrong; fix it."}`
	tests := []struct {
		name                string
		host, origin, ctype string
		auth                string
		body                string
		want                int
	}{
		{"no token", "", "", "application/json", "", ask, 401},
		{"wrong token", "", "", "application/json", "Bearer nope", ask, 401},
		{"foreign origin", "", "https://evil.example", "application/json", "Bearer " + s.token, ask, 403},
		{"foreign host (DNS rebinding)", "evil.example:" + port(s.addr), "", "application/json", "Bearer " + s.token, ask, 403},
		{"text/plain", "", "", "text/plain", "Bearer " + s.token, ask, 415},
		{"project outside the roots", "", "", "application/json", "Bearer " + s.token, `{"project": "` + outside + `", "request": "fix it"}`, 403},
		{"a link out of a root", "", "", "application/json", "Bearer " + s.token, `{"project": "` + filepath.Join(root, "escape") + `", "request": "fix it"}`, 403},
		{"a test command in the body", "", "", "application/json", "Bearer " + s.token,
			`{"project": "` + app + `", "request": "fix it", "test": "touch ` + marker + `"}`, 400},
		{"the reported attack: text/plain, evil origin and host, a command", "evil.example", "https://evil.example", "text/plain", "",
			`{"project": "/", "request": "x", "test": "id > ` + marker + `"}`, 403},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest("POST", "http://"+s.addr+"/v1/ask", strings.NewReader(tt.body))
		req.Host = cmp.Or(tt.host, s.addr)
		for k, v := range map[string]string{"Origin": tt.origin, "Content-Type": tt.ctype, "Authorization": tt.auth} {
			if v != "" {
				req.Header.Set(k, v)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.want || !strings.Contains(string(b), `"error"`) {
			t.Errorf("%s: %d %s, want %d", tt.name, resp.StatusCode, b, tt.want)
		}
	}
	if n := len(model.Requests()); n != 0 {
		t.Errorf("refused requests reached the model %d times", n)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a command from a request ran")
	}
	for _, p := range []string{app, outside} {
		if b, _ := os.ReadFile(filepath.Join(p, "m.go")); string(b) == doortest.Fixed {
			t.Errorf("a refused request changed %s", p)
		}
	}

	// The operator's allowed origin gets through (with the token).
	req, _ := http.NewRequest("GET", "http://"+s.addr+"/v1/models", nil)
	req.Header.Set("Origin", "http://ok.example")
	req.Header.Set("Authorization", "Bearer "+s.token)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Errorf("allowed origin: %v %v", resp, err)
	}

	// The operator's own refusals: a non-loopback address, no roots.
	for _, args := range [][]string{
		{"serve", "--addr", "0.0.0.0:0", "--project", app},
		{"serve", "--addr", "127.0.0.1:0"},
	} {
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "--allow-remote") && !strings.Contains(string(out), "--root DIR") {
			t.Errorf("%v: %v %s", args, err, out)
		}
	}
}

// The OpenAI-compatible endpoint works from the official client with the
// token as its API key, streaming included, as the README shows.
func TestServeBinaryWithOpenAIClient(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the ratchet binary")
	}
	bin := doortest.Ratchet(t)
	model, err := fakemodel.Start(fixers(50)...)
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	root := t.TempDir()
	app, other := filepath.Join(root, "app"), filepath.Join(root, "other")
	os.Rename(doortest.Project(t), app)
	os.Rename(doortest.Project(t), other)
	env := append(doortest.ModelEnv(model.URL), "RATCHET_TOKEN=my-own-token")
	s := startServe(t, bin, env, "--home", t.TempDir(), "--harness", doortest.Harness(), "--project", app, "--root", root)
	if s.token != "" || strings.Contains(s.stderr.String(), "my-own-token") {
		t.Errorf("RATCHET_TOKEN was printed:\n%s", s.stderr)
	}
	client := openai.NewClient(option.WithBaseURL("http://"+s.addr+"/v1/"), option.WithAPIKey("my-own-token"), option.WithMaxRetries(0))
	ctx := context.Background()
	resp, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model:    "ratchet",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Double is wrong; fix it.")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Choices[0].Message.Content; !strings.Contains(got, "Fixed Double") || !strings.Contains(got, "tests after: pass") {
		t.Errorf("reply = %q", got)
	}
	if b, _ := os.ReadFile(filepath.Join(app, "m.go")); string(b) != doortest.Fixed {
		t.Error("the default project was not fixed")
	}

	stream := client.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{
		Model: "ratchet", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Double is wrong; fix it.")},
	}, option.WithHeader("X-Ratchet-Project", other))
	var acc openai.ChatCompletionAccumulator
	for stream.Next() {
		acc.AddChunk(stream.Current())
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if got := acc.Choices[0].Message.Content; !strings.Contains(got, "write_file") || !strings.Contains(got, "Fixed Double") {
		t.Errorf("streamed = %q", got)
	}
	if b, _ := os.ReadFile(filepath.Join(other, "m.go")); string(b) != doortest.Fixed {
		t.Error("the streamed request's project was not fixed")
	}

	bad := openai.NewClient(option.WithBaseURL("http://"+s.addr+"/v1/"), option.WithAPIKey("wrong"), option.WithMaxRetries(0))
	_, err = bad.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "ratchet", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("x")}})
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 401 {
		t.Errorf("wrong API key: %v", err)
	}
}

func fixers(n int) []fakemodel.Step {
	steps := make([]fakemodel.Step, n)
	for i := range steps {
		steps[i] = fakemodel.Step{Func: doortest.Fixer}
	}
	return steps
}

func port(addr string) string { return addr[strings.LastIndex(addr, ":")+1:] }

// With a single --project, /v1/ask takes it as the default as chat requests
// do; each request is one line on the server's stderr (method, path,
// project, outcome, tokens in and out, time); a chat reply's usage splits
// prompt and completion tokens as the model reported them.
func TestServeBinaryLogsEachRequestAndTakesTheOnlyProject(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the ratchet binary")
	}
	bin := doortest.Ratchet(t)
	model, err := fakemodel.Start(fixers(50)...)
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	app := doortest.Project(t)
	real, _ := filepath.EvalSymlinks(app)
	env := append(doortest.ModelEnv(model.URL), "RATCHET_TOKEN=tok")
	s := startServe(t, bin, env, "--home", t.TempDir(), "--harness", doortest.Harness(), "--project", app)
	post := func(path, body, token string) (int, string) {
		req, _ := http.NewRequest("POST", "http://"+s.addr+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := post("/v1/ask", `{"request": "Double is wrong; fix it."}`, "tok"); code != 200 || !strings.Contains(body, `"outcome":"completed"`) {
		t.Fatalf("/v1/ask without a project: %d %s", code, body)
	}
	if b, _ := os.ReadFile(filepath.Join(app, "m.go")); string(b) != doortest.Fixed {
		t.Error("the only project was not fixed")
	}
	code, body := post("/v1/chat/completions", `{"model": "ratchet", "messages": [{"role": "user", "content": "Check Double."}]}`, "tok")
	if code != 200 || !strings.Contains(body, `"prompt_tokens":140`) || !strings.Contains(body, `"completion_tokens":40`) {
		t.Errorf("chat usage: %d %s", code, body)
	}
	post("/v1/ask", `{"request": "x"}`, "wrong")
	want := []*regexp.Regexp{
		regexp.MustCompile(`ratchet: POST /v1/ask project=` + regexp.QuoteMeta(real) + ` outcome=completed tokens=180 \(in 140, out 40\) \d`),
		regexp.MustCompile(`ratchet: POST /v1/chat/completions project=` + regexp.QuoteMeta(real) + ` outcome=completed tokens=180 \(in 140, out 40\) `),
		regexp.MustCompile(`ratchet: POST /v1/ask project=- outcome=refused_401 tokens=0 `),
	}
	deadline := time.Now().Add(2 * time.Minute)
	for _, re := range want {
		for !re.MatchString(s.stderr.String()) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if !re.MatchString(s.stderr.String()) {
			t.Errorf("no log line matching %s in:\n%s", re, s.stderr)
		}
	}
}
