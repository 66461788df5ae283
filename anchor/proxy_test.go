package anchor

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"ratchet/harness/fakemodel"
)

const secret = "sk-test-SECRET-123"

func unixClient(sock string) *http.Client {
	return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", sock)
	}}}
}

// chatPath is the one path a proxy in api mode serves.
func chatPath(api string) string {
	if api == "anthropic" {
		return "/v1/messages"
	}
	return "/v1/chat/completions"
}

// serveProxy starts a proxy in front of upstream and returns it with a
// client that reaches it through its unix socket.
func serveProxy(t testing.TB, c ProxyConfig) (*Proxy, *http.Client) {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "m.sock")
	p, err := StartProxy(sock, c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p, unixClient(sock)
}

func startProxy(t *testing.T, api string, budget int64, steps ...fakemodel.Step) (*Proxy, *fakemodel.Server, *http.Client) {
	t.Helper()
	srv, err := fakemodel.Start(steps...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	p, c := serveProxy(t, ProxyConfig{API: api, Upstream: srv.URL, Model: "frozen-model", Key: secret, Budget: budget, Seed: 7})
	return p, srv, c
}

// send makes one request through the proxy and returns the response with
// its body read. A transport error is returned as a nil response.
func send(t testing.TB, c *http.Client, method, path string, body io.Reader) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, "http://model"+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer from-the-sandbox")
	resp, err := c.Do(req)
	if err != nil {
		return nil, err.Error()
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

func post(t testing.TB, c *http.Client, path, body string) (*http.Response, string) {
	t.Helper()
	resp, out := send(t, c, "POST", path, strings.NewReader(body))
	if resp == nil {
		t.Fatalf("POST %s: %s", path, out)
	}
	return resp, out
}

// meter is a model server on loopback that is as lenient as the servers
// the proxy stands in front of: it decodes bodies with encoding/json (any
// key case, the last duplicate, trailing bytes ignored, as Ollama does),
// honours max_completion_tokens over max_tokens (as vLLM does), serves n
// replies, and streams usage only when asked to. It counts every token it
// serves, and what it reports.
type meter struct {
	url      string
	reply    int64 // output tokens of a reply that nothing caps
	noUsage  bool  // never report usage
	status   int   // when set, answer this status with the credential in the body
	delay    time.Duration
	pad      int  // bytes of filler events before a stream's usage
	dense    bool // one input token a byte, as "1,1,1,..." is on BPE tokenizers
	mu       sync.Mutex
	served   int64
	reported int64
	bodies   []string
	paths    []string
	inFlight int
	most     int // the most requests in flight at once
}

func startMeter(t testing.TB, reply int64) *meter {
	t.Helper()
	m := &meter{reply: reply}
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	m.url = srv.URL
	return m
}

func (m *meter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	m.mu.Lock()
	m.paths = append(m.paths, r.Method+" "+r.URL.RequestURI())
	m.bodies = append(m.bodies, string(body))
	m.inFlight++
	m.most = max(m.most, m.inFlight)
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		m.inFlight--
		m.mu.Unlock()
	}()
	time.Sleep(m.delay)
	w.Header().Set("X-Upstream-Echo", r.Header.Get("Authorization")+r.Header.Get("X-Api-Key"))
	if m.status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(m.status)
		fmt.Fprintf(w, `{"error":{"message":"overloaded, key %s"}}`, secret)
		return
	}
	var req struct {
		Model         string
		Stream        bool
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
		MaxTokens           *int64 `json:"max_tokens"`
		MaxCompletionTokens *int64 `json:"max_completion_tokens"`
		N                   int64
	}
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	in, out := int64(len(body)/4), m.reply
	if m.dense {
		in = int64(len(body))
	}
	switch {
	case req.MaxCompletionTokens != nil:
		out = min(out, *req.MaxCompletionTokens)
	case req.MaxTokens != nil:
		out = min(out, *req.MaxTokens)
	}
	out *= max(req.N, 1)
	anthropic := r.URL.Path == "/v1/messages"
	usage := !m.noUsage && (anthropic || !req.Stream || req.StreamOptions.IncludeUsage)
	m.mu.Lock()
	m.served += in + out
	if usage {
		m.reported += in + out
	}
	m.mu.Unlock()
	text := "the key is " + r.Header.Get("Authorization") + r.Header.Get("X-Api-Key")
	switch {
	case anthropic && req.Stream:
		w.Header().Set("Content-Type", "text/event-stream")
		start := map[string]any{"type": "message_start", "message": map[string]any{"role": "assistant", "usage": map[string]any{"input_tokens": in, "output_tokens": 1}}}
		delta := map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": text}}
		half := map[string]any{"type": "message_delta", "usage": map[string]any{"output_tokens": out / 2}}
		end := map[string]any{"type": "message_delta", "usage": map[string]any{"output_tokens": out}}
		events := []any{start, delta, half, end}
		if !usage {
			events = []any{delta}
		}
		for _, e := range events {
			b, _ := json.Marshal(e)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.(map[string]any)["type"], b)
		}
	case anthropic:
		w.Header().Set("Content-Type", "application/json")
		reply := map[string]any{"type": "message", "content": []any{map[string]any{"type": "text", "text": text}}}
		if usage {
			reply["usage"] = map[string]any{"input_tokens": in, "output_tokens": out}
		}
		json.NewEncoder(w).Encode(reply)
	case req.Stream:
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"choices\":[{\"delta\":{\"content\":%q}}]}\n\n", text)
		filler := fmt.Sprintf("data: {\"choices\":[{\"delta\":{\"content\":%q}}]}\n\n", strings.Repeat("y", 1000))
		for range m.pad / len(filler) {
			io.WriteString(w, filler)
		}
		if usage {
			fmt.Fprintf(w, "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":%d,\"completion_tokens\":%d}}\n\n", in, out)
		}
		io.WriteString(w, "data: [DONE]\n\n")
	default:
		// OpenAI sends its replies indented, over many lines.
		reply := map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": text}}}}
		if usage {
			reply["usage"] = map[string]any{"prompt_tokens": in, "completion_tokens": out}
		}
		b, _ := json.MarshalIndent(reply, "", "  ")
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}
}

func (m *meter) totals() (served, reported int64, requests, most int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.served, m.reported, len(m.bodies), m.most
}

func (m *meter) lastBody(t *testing.T) map[string]any {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.bodies) == 0 {
		t.Fatal("the upstream received nothing")
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(m.bodies[len(m.bodies)-1]), &v); err != nil {
		t.Fatalf("forwarded body %q: %v", m.bodies[len(m.bodies)-1], err)
	}
	return v
}

// chat is a request body with about n bytes of conversation. The proxy's
// estimate of its input, a token a byte, is over what the meter counts
// (a token in four bytes) even after pinning adds its fields.
func chat(n int, extra string) string {
	return fmt.Sprintf(`{"model":"m","messages":[{"role":"user","content":%q}]%s}`, strings.Repeat("x", n), extra)
}

func TestProxyCountsUsage(t *testing.T) {
	tests := []struct {
		api    string
		stream bool
		wantIn int64
	}{
		{"openai", false, 120},
		{"openai", true, 120},
		{"anthropic", false, 120 + 30},
		{"anthropic", true, 120 + 30},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/stream=%v", tt.api, tt.stream), func(t *testing.T) {
			step := fakemodel.Step{Text: "hello there", Calls: []fakemodel.Call{{Name: "read_file", Args: `{"path":"a"}`}}, In: 120, Out: 40, CacheRead: 30}
			p, srv, c := startProxy(t, tt.api, 100000, step, step)
			body := fmt.Sprintf(`{"model":"m","stream":%v,"max_tokens":500,"messages":[{"role":"user","content":"hi"}]}`, tt.stream)
			for range 2 {
				resp, out := post(t, c, chatPath(tt.api), body)
				if resp.StatusCode != 200 || !strings.Contains(out, "hello") {
					t.Fatalf("status %d body %s", resp.StatusCode, out)
				}
			}
			in, out := p.Used()
			if in != 2*tt.wantIn || out != 80 {
				t.Errorf("counted in=%d out=%d, want %d and 80", in, out, 2*tt.wantIn)
			}
			req := string(srv.Requests()[0].Body)
			if !strings.Contains(req, `"model":"frozen-model"`) || strings.Contains(req, `"model":"m"`) {
				t.Errorf("the operator's model was not pinned (I1): %s", req)
			}
			if tt.api == "openai" && tt.stream && !strings.Contains(req, `"include_usage":true`) {
				t.Errorf("stream request did not ask for usage: %s", req)
			}
		})
	}
}

func TestProxyInjectsCredentialAndNeverEchoesIt(t *testing.T) {
	for _, api := range []string{"openai", "anthropic"} {
		t.Run(api, func(t *testing.T) {
			m := startMeter(t, 20)
			_, c := serveProxy(t, ProxyConfig{API: api, Upstream: m.url, Model: "frozen-model", Key: secret, Budget: 1 << 40})
			check := func(resp *http.Response, out string) {
				t.Helper()
				var hdr strings.Builder
				resp.Header.Write(&hdr)
				if strings.Contains(out, secret) || strings.Contains(hdr.String(), secret) {
					t.Errorf("the credential came back: %s %s", hdr.String(), out)
				}
				if !strings.Contains(out, "[credential]") {
					t.Errorf("the echoed credential was not scrubbed but dropped or never sent: %s", out)
				}
				if resp.Header.Get("X-Upstream-Echo") != "" {
					t.Errorf("an upstream header other than Content-Type was relayed: %s", hdr.String())
				}
			}
			for _, stream := range []bool{false, true} {
				resp, out := post(t, c, chatPath(api), chat(10, fmt.Sprintf(`,"stream":%v`, stream)))
				check(resp, out)
			}
			m.status = http.StatusUnauthorized
			resp, out := post(t, c, chatPath(api), chat(10, ""))
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("status %d, want the upstream's 401", resp.StatusCode)
			}
			check(resp, out)
			for _, b := range m.bodies {
				if strings.Contains(b, "from-the-sandbox") {
					t.Errorf("a sandbox header reached the body: %s", b)
				}
			}
		})
	}
	// The header itself: the sandbox's Authorization never reaches upstream.
	_, srv, c := startProxy(t, "anthropic", 1000)
	post(t, c, "/v1/messages", chat(10, ""))
	h := srv.Requests()[0].Header
	if h.Get("x-api-key") != secret || h.Get("Authorization") != "" || h.Get("anthropic-version") == "" {
		t.Errorf("upstream headers = %v", h)
	}
}

// TestProxyRefusesTricks replays each trick of issue 11 that made the
// proxy forward uncounted or unpinned: none may reach the upstream.
func TestProxyRefusesTricks(t *testing.T) {
	m := startMeter(t, 1000)
	p, c := serveProxy(t, ProxyConfig{API: "openai", Upstream: m.url, Model: "frozen-model", Key: secret, Budget: 5000})
	tests := []struct {
		name, method, path, body string
		want                     int
	}{
		{"trailing object", "POST", "/v1/chat/completions", chat(10, "") + ` {"stream":true}`, 400},
		{"trailing bytes", "POST", "/v1/chat/completions", chat(10, "") + `x`, 400},
		{"Stream", "POST", "/v1/chat/completions", chat(10, `,"Stream":true`), 400},
		{"MODEL", "POST", "/v1/chat/completions", chat(10, `,"MODEL":"big"`), 400},
		{"Max_Tokens", "POST", "/v1/chat/completions", chat(10, `,"Max_Tokens":100000`), 400},
		{"long s", "POST", "/v1/chat/completions", chat(10, `,"ſtream":true`), 400},
		{"duplicate", "POST", "/v1/chat/completions", chat(10, `,"stream":false,"stream":true`), 400},
		{"escaped duplicate", "POST", "/v1/chat/completions", `{"model":"a","\u006dodel":"b"}`, 400},
		{"array", "POST", "/v1/chat/completions", `[{"model":"m"}]`, 400},
		{"null", "POST", "/v1/chat/completions", `null`, 400},
		{"empty", "POST", "/v1/chat/completions", ``, 400},
		{"unterminated", "POST", "/v1/chat/completions", `{"model":"m"`, 400},
		{"max_tokens string", "POST", "/v1/chat/completions", chat(10, `,"max_tokens":"100"`), 400},
		{"max_tokens negative", "POST", "/v1/chat/completions", chat(10, `,"max_tokens":-1`), 400},
		{"max_tokens fraction", "POST", "/v1/chat/completions", chat(10, `,"max_tokens":1.5`), 400},
		// Invalid UTF-8 would reach the upstream three times as long as
		// charged (each byte re-encoded as U+FFFD); an escaped lone
		// surrogate is valid JSON and shorter once decoded, so it passes.
		{"invalid UTF-8", "POST", "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"` + strings.Repeat("\xff", 900) + `"}]}`, 400},
		{"GET", "GET", "/v1/chat/completions", ``, 405},
		{"pull", "POST", "/api/pull", `{"model":"huge"}`, 404},
		{"delete file", "DELETE", "/v1/files/x", ``, 404},
		{"batches", "POST", "/v1/batches", `{"input_file_id":"f"}`, 404},
		{"the other API", "POST", "/v1/messages", chat(10, ""), 404},
		{"a path below", "POST", "/v1/chat/completions/x", chat(10, ""), 404},
	}
	for _, tt := range tests {
		resp, out := send(t, c, tt.method, tt.path, strings.NewReader(tt.body))
		if resp == nil || resp.StatusCode != tt.want {
			t.Errorf("%s: got %v %s, want %d", tt.name, resp, out, tt.want)
		}
	}
	// 60 MiB, streamed: refused after 4 MiB; the rest is never read.
	var sent zeros
	resp, out := send(t, c, "POST", "/v1/chat/completions", io.MultiReader(strings.NewReader(`{"messages":"`), io.LimitReader(&sent, 60<<20)))
	if resp == nil || resp.StatusCode != http.StatusRequestEntityTooLarge || sent > 16<<20 {
		t.Errorf("60 MiB body: %v %s, %d MiB sent", resp, out, sent>>20)
	}
	if _, _, n, _ := m.totals(); n != 0 {
		t.Errorf("the upstream received %d requests: %v", n, m.paths)
	}
	if in, out := p.Used(); in+out != 0 {
		t.Errorf("refused requests were charged %d tokens", in+out)
	}
}

// zeros reads as endless zero bytes and counts them.
type zeros int64

func (z *zeros) Read(b []byte) (int, error) {
	clear(b)
	*z += zeros(len(b))
	return len(b), nil
}

// TestProxyBudgetHoldsUnderConcurrency is issue 11's overspend: 32 callers
// at once, every trick mixed in. The upstream must serve no more than the
// budget (the proxy over-estimates its input here, so not even one capped
// reply more), serve one request at a time, and the ledger's figure must be
// what it reported.
func TestProxyBudgetHoldsUnderConcurrency(t *testing.T) {
	const callers, budget = 32, 20000
	m := startMeter(t, 1000)
	p, c := serveProxy(t, ProxyConfig{API: "openai", Upstream: m.url, Model: "frozen-model", Key: secret, Budget: budget})
	bodies := []string{
		chat(400, `,"max_tokens":50`),
		chat(400, `,"stream":true,"max_tokens":50`),
		chat(400, ``),                                 // no max_tokens: the model runs on
		chat(400, `,"max_tokens":100000000`),          // far over the budget
		chat(400, `,"max_completion_tokens":1000000`), // the limit Ollama ignores
		chat(400, `,"max_tokens":50,"max_completion_tokens":1000000`),
		chat(400, `,"n":50`),
		chat(400, `,"stream":true`),
		chat(400, `,"Stream":true`),
		chat(400, `,"stream":false,"stream":true`),
		chat(400, ``) + ` {"stream":true}`,
	}
	var wg sync.WaitGroup
	var ok, refused atomic.Int64
	for i := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := i; ; j++ {
				resp, _ := post(t, c, "/v1/chat/completions", bodies[j%len(bodies)])
				switch resp.StatusCode {
				case http.StatusOK:
					ok.Add(1)
				case http.StatusTooManyRequests:
					if resp.Header.Get("x-should-retry") != "false" {
						t.Error("429 without x-should-retry: false")
					}
					refused.Add(1)
					return
				}
			}
		}()
	}
	wg.Wait()
	served, reported, n, most := m.totals()
	in, out := p.Used()
	t.Logf("%d replies, %d requests upstream, %d tokens served", ok.Load(), n, served)
	if served > budget || served < budget/2 {
		t.Errorf("the upstream served %d tokens on a budget of %d", served, budget)
	}
	if in+out != reported || reported != served {
		t.Errorf("charged %d, reported %d, served %d: want all equal", in+out, reported, served)
	}
	if most != 1 || refused.Load() != callers || ok.Load() < 10 {
		t.Errorf("at most %d in flight (want 1), %d refused, %d served", most, refused.Load(), ok.Load())
	}
	if resp, _ := post(t, c, "/v1/chat/completions", bodies[0]); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("after the budget: %d", resp.StatusCode)
	}
	if _, _, again, _ := m.totals(); again != n {
		t.Error("a request after the budget reached the upstream")
	}
}

// TestProxyInputEstimate: a prompt that is a token a byte may not cost more
// than the budget, and one that would is refused before it is sent.
func TestProxyInputEstimate(t *testing.T) {
	const budget = 3000
	m := startMeter(t, 1000)
	m.dense = true
	p, c := serveProxy(t, ProxyConfig{API: "openai", Upstream: m.url, Model: "m", Budget: budget})
	digits := func(n int) string {
		return fmt.Sprintf(`{"messages":[{"role":"user","content":%q}]}`, strings.Repeat("1,", n))
	}
	if resp, _ := post(t, c, "/v1/chat/completions", digits(4400)); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("a prompt of about 8800 tokens on a budget of %d: %d", budget, resp.StatusCode)
	}
	if resp, _ := post(t, c, "/v1/chat/completions", digits(1000)); resp.StatusCode != 200 {
		t.Errorf("a prompt of about 2000 tokens: %d", resp.StatusCode)
	}
	served, reported, _, _ := m.totals()
	if in, out := p.Used(); served > budget+100 || in+out != reported {
		t.Errorf("served %d on a budget of %d; charged %d, reported %d", served, budget, in+out, reported)
	}
}

func TestProxyPinsAndCaps(t *testing.T) {
	const budget = 10000
	tests := []struct {
		name, api, extra string
		want             map[string]any // fields of the forwarded body; nil means absent
	}{
		{"openai absent", "openai", ``, map[string]any{"max_tokens": "left", "model": "frozen-model", "seed": 7.0, "stream_options": nil}},
		{"openai smaller", "openai", `,"max_tokens":10`, map[string]any{"max_tokens": 10.0}},
		{"openai larger", "openai", `,"max_tokens":1000000`, map[string]any{"max_tokens": "left"}},
		{"openai max_completion_tokens", "openai", `,"max_completion_tokens":1000000`, map[string]any{"max_completion_tokens": "left", "max_tokens": "left"}},
		{"openai n_predict", "openai", `,"n_predict":1000000`, map[string]any{"n_predict": "left"}},
		{"openai n", "openai", `,"n":8`, map[string]any{"n": 1.0}},
		{"vllm best_of", "openai", `,"n":1,"best_of":8`, map[string]any{"best_of": 1.0}},
		{"operator's options win", "openai", `,"temperature":2,"options":{"num_ctx":99}`,
			map[string]any{"temperature": 0.0, "options": map[string]any{"num_ctx": 8192.0}, "keep_alive": "5m"}},
		{"openai stream", "openai", `,"stream":true`, map[string]any{"stream_options": map[string]any{"include_usage": true}}},
		{"anthropic absent", "anthropic", `,"stream":true`, map[string]any{"max_tokens": "left", "model": "frozen-model", "seed": nil, "stream_options": nil}},
		{"anthropic larger", "anthropic", `,"max_tokens":1000000`, map[string]any{"max_tokens": "left"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := startMeter(t, 5)
			_, c := serveProxy(t, ProxyConfig{API: tt.api, Upstream: m.url, Model: "frozen-model", Key: secret, Budget: budget, Seed: 7,
				Options: `{"temperature":0,"options":{"num_ctx":8192},"keep_alive":"5m"}`})
			body := chat(300, tt.extra)
			if resp, out := post(t, c, chatPath(tt.api), body); resp.StatusCode != 200 {
				t.Fatalf("%d %s", resp.StatusCode, out)
			}
			got := m.lastBody(t)
			for k, want := range tt.want {
				if want == "left" {
					want = float64(budget - len(body))
				}
				if g, present := got[k]; fmt.Sprint(g) != fmt.Sprint(want) || present != (want != nil) {
					t.Errorf("%s = %v, want %v (body %v)", k, g, want, got)
				}
			}
		})
	}
}

// TestProxyChargesWhatItCannotSee: a reply without usage, and a caller who
// hangs up before the reply, are charged all they could have cost; an
// upstream 4xx, nothing.
func TestProxyChargesWhatItCannotSee(t *testing.T) {
	t.Parallel()
	const budget = 9000
	body := chat(300, "")
	reservation := int64(budget)
	t.Run("no usage", func(t *testing.T) {
		m := startMeter(t, 5)
		m.noUsage = true
		p, c := serveProxy(t, ProxyConfig{API: "openai", Upstream: m.url, Model: "m", Budget: budget})
		post(t, c, "/v1/chat/completions", body)
		if in, out := p.Used(); in != int64(len(body)) || in+out != reservation {
			t.Errorf("charged in=%d out=%d, want the reservation %d", in, out, reservation)
		}
		if resp, _ := post(t, c, "/v1/chat/completions", body); resp.StatusCode != http.StatusTooManyRequests {
			t.Errorf("after a reply charged its reservation: %d", resp.StatusCode)
		}
	})
	t.Run("reply over the cap", func(t *testing.T) {
		m := startMeter(t, 5)
		m.pad = 65 << 20
		p, c := serveProxy(t, ProxyConfig{API: "openai", Upstream: m.url, Model: "m", Budget: budget})
		resp, out := post(t, c, "/v1/chat/completions", chat(300, `,"stream":true`))
		if resp.StatusCode != 200 || len(out) > 64<<20 || strings.Contains(out, "usage") {
			t.Errorf("status %d, %d bytes relayed", resp.StatusCode, len(out))
		}
		if in, out := p.Used(); in+out != reservation {
			t.Errorf("a reply cut off was charged %d, want the reservation %d", in+out, reservation)
		}
	})
	t.Run("upstream 4xx", func(t *testing.T) {
		m := startMeter(t, 5)
		m.status = http.StatusBadRequest
		p, c := serveProxy(t, ProxyConfig{API: "anthropic", Upstream: m.url, Model: "m", Budget: budget})
		post(t, c, "/v1/messages", body)
		if in, out := p.Used(); in+out != 0 || p.Failure() != "" {
			t.Errorf("a refused request was charged %d tokens, failure %q", in+out, p.Failure())
		}
	})
	t.Run("caller hangs up", func(t *testing.T) {
		m := startMeter(t, 5)
		m.delay = 300 * time.Millisecond
		p, c := serveProxy(t, ProxyConfig{API: "openai", Upstream: m.url, Model: "m", Budget: budget})
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "POST", "http://model/v1/chat/completions", strings.NewReader(body))
		if _, err := c.Do(req); err == nil {
			t.Fatal("the request was not cut off")
		}
		p.Close() // returns once the exchange is charged
		if in, out := p.Used(); in+out != reservation {
			t.Errorf("charged %d, want the reservation %d", in+out, reservation)
		}
		// The harness hung up: its own doing, no failure of the upstream's.
		if p.Failure() != "" {
			t.Errorf("a caller that hung up made a failure: %q", p.Failure())
		}
	})
}

func TestProxyFailure(t *testing.T) {
	// A dead upstream: 502, a reason without the key, nothing charged (the
	// request reached no one), and the probe fails.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	p, c := serveProxy(t, ProxyConfig{API: "openai", Upstream: "http://" + addr, Model: "m", Key: secret, Budget: 100000})
	resp, out := post(t, c, "/v1/chat/completions", chat(300, ""))
	if resp.StatusCode != http.StatusBadGateway || strings.Contains(out, secret) || !strings.Contains(p.Failure(), "unreachable") {
		t.Errorf("dead upstream: %d %s, failure %q", resp.StatusCode, out, p.Failure())
	}
	if in, out := p.Used(); in+out != 0 {
		t.Errorf("a request that reached no one was charged %d", in+out)
	}
	if err := p.Probe(context.Background()); err == nil || strings.Contains(err.Error(), secret) {
		t.Errorf("probe of a dead upstream: %v", err)
	}
	// The upstream comes up at that address, answering everyone 503: the
	// failure is recorded, relayed without the key, and the probe fails
	// too, so it is the machine's.
	ln, err = net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen again on %s: %v", addr, err)
	}
	m := &meter{reply: 5, status: http.StatusServiceUnavailable}
	srv := httptest.NewUnstartedServer(m)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	defer srv.Close()
	p2, c2 := serveProxy(t, ProxyConfig{API: "openai", Upstream: srv.URL, Model: "m", Key: secret, Budget: 100000})
	resp, out = post(t, c2, "/v1/chat/completions", chat(300, ""))
	if resp.StatusCode != http.StatusServiceUnavailable || strings.Contains(out, secret) || !strings.Contains(p2.Failure(), "503") {
		t.Errorf("5xx: %d %s, failure %q", resp.StatusCode, out, p2.Failure())
	}
	if strings.Contains(p2.Failure(), secret) {
		t.Errorf("the failure names the key: %q", p2.Failure())
	}
	if err := p2.Probe(context.Background()); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("probe of an upstream that answers 503: %v", err)
	}
	// Healthy again: a success clears the failure, and the probe passes.
	m.status = 0
	if resp, out := post(t, c2, "/v1/chat/completions", chat(300, "")); resp.StatusCode != 200 || p2.Failure() != "" {
		t.Errorf("after recovery: %d %s, failure %q", resp.StatusCode, out, p2.Failure())
	}
	if err := p2.Probe(context.Background()); err != nil {
		t.Errorf("probe of a healthy upstream: %v", err)
	}
}

func TestProxyRefusesServerTools(t *testing.T) {
	for _, api := range []string{"openai", "anthropic"} {
		m := &meter{reply: 5}
		srv := httptest.NewServer(m)
		defer srv.Close()
		path := "/v1/chat/completions"
		if api == "anthropic" {
			path = "/v1/messages"
		}
		_, c := serveProxy(t, ProxyConfig{API: api, Upstream: srv.URL, Model: "m", Key: secret, Budget: 100000})
		for _, body := range []string{
			`{"messages":[{"role":"user","content":"hi"}],"tools":[{"type":"web_search_20250305","name":"web_search"}]}`,
			`{"messages":[{"role":"user","content":"hi"}],"tools":[{"type":"web_fetch_20250910","name":"web_fetch"}]}`,
			`{"messages":[{"role":"user","content":"hi"}],"web_search_options":{}}`,
			`{"messages":[{"role":"user","content":"hi"}],"mcp_servers":[{"type":"url","url":"https://example.com"}]}`,
			`{"messages":[{"role":"user","content":"hi"}],"tools":"all"}`,
		} {
			if resp, out := post(t, c, path, body); resp.StatusCode != http.StatusBadRequest {
				t.Errorf("%s %s: %d %s", api, body, resp.StatusCode, out)
			}
		}
		// Each API's own function tools, as its documentation writes them.
		ok := `{"messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"read_file","parameters":{}}}]}`
		if api == "anthropic" {
			ok = `{"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"list_dir","input_schema":{}}]}`
		}
		if resp, out := post(t, c, path, ok); resp.StatusCode != http.StatusOK {
			t.Errorf("%s function tools: %d %s", api, resp.StatusCode, out)
		}
	}
}

// BenchmarkProxyStream is one streamed chat call of 100 chunks through the
// proxy; BenchmarkProxyStreamDirect is the same call without it.
func BenchmarkProxyStream(b *testing.B) {
	srv, _ := fakemodel.Start()
	defer srv.Close()
	_, c := serveProxy(b, ProxyConfig{API: "openai", Upstream: srv.URL, Model: "m", Key: "sk-bench", Budget: 1 << 62})
	benchStream(b, c, "http://model", srv)
}

func BenchmarkProxyStreamDirect(b *testing.B) {
	srv, _ := fakemodel.Start()
	defer srv.Close()
	benchStream(b, &http.Client{}, srv.URL, srv)
}

func benchStream(b *testing.B, c *http.Client, url string, srv *fakemodel.Server) {
	body := `{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`
	text := strings.Repeat("word ", 100)
	for b.Loop() {
		srv.Add(fakemodel.Step{Text: text, In: 10, Out: 100})
		resp, err := c.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || n < 1000 {
			b.Fatalf("status %d, %d bytes", resp.StatusCode, n)
		}
	}
}

// TestProxyTextOnly: only text content parts and the harness's own tool
// calls and results reach the model. Media parts are billed by the provider
// per item, not by their bytes, and one given by URL is fetched from the
// network (red team three tests both end to end).
func TestProxyTextOnly(t *testing.T) {
	m := startMeter(t, 5)
	_, c := serveProxy(t, ProxyConfig{API: "anthropic", Upstream: m.url, Model: "m", Key: secret, Budget: 1 << 30})
	for _, tt := range []struct {
		name, messages string
		ok             bool
	}{
		{"text", `[{"role":"user","content":"hi"}]`, true},
		{"blocks", `[{"role":"user","content":[{"type":"text","text":"hi"}]}]`, true},
		{"tool use and result", `[{"role":"assistant","content":[{"type":"tool_use","id":"1","name":"f","input":{"type":"image"}}]},` +
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"1","content":[{"type":"text","text":"ok"}]}]}]`, true},
		{"openai image", `[{"role":"user","content":[{"type":"image_url","image_url":{"url":"http://x.example/a.png"}}]}]`, false},
		{"anthropic image in a tool result", `[{"role":"user","content":[{"type":"tool_result","tool_use_id":"1",` +
			`"content":[{"type":"image","source":{"type":"url","url":"http://x.example/a.png"}}]}]}]`, false},
		{"document", `[{"role":"user","content":[{"type":"document","source":{"type":"url","url":"http://x.example/a.pdf"}}]}]`, false},
		{"audio", `[{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"AAAA","format":"wav"}}]}]`, false},
		{"ollama images", `[{"role":"user","content":"what is this","images":["AAAA"]}]`, false},
		{"an unknown part", `[{"role":"user","content":[{"type":"video_url","video_url":{"url":"http://x.example/v"}}]}]`, false},
	} {
		resp, out := post(t, c, "/v1/messages", `{"messages":`+tt.messages+`}`)
		if ok := resp.StatusCode == 200; ok != tt.ok {
			t.Errorf("%s: %d %s", tt.name, resp.StatusCode, out)
		}
	}
	resp, out := post(t, c, "/v1/messages", `{"system":[{"type":"image","source":{"type":"base64","data":"AAAA"}}],"messages":[]}`)
	if resp.StatusCode != 400 {
		t.Errorf("an image in the system blocks: %d %s", resp.StatusCode, out)
	}
}

// A harness hammers the model socket with 32 parallel clients and every
// trick of issue 11 (proxy-overspend.txtar) against an upstream that always
// talks until cut off: the upstream serves no more than the budget and one
// capped reply, and the ledger records what it served.
func TestHostileHarnessCannotOverspend(t *testing.T) {
	slow(t)
	t.Parallel()
	var served, requests atomic.Int64
	talker := fakemodel.Step{Func: func(r fakemodel.Request) fakemodel.Step {
		var body struct {
			MaxTokens int `json:"max_tokens"`
		}
		json.Unmarshal(r.Body, &body)
		out := cmp.Or(body.MaxTokens, 100000) // no cap: it talks on
		served.Add(int64(100 + out))
		requests.Add(1)
		return fakemodel.Step{Text: "blah", In: 100, Out: out}
	}}
	e := newEnv(t, repeat(talker, 1<<14)...)
	e.a.Budget = 5000
	task := addTask(t, e.suite, "train", "spender")
	r, err := e.a.RunTask(ctx(), e.hostile(t, attackFor(t, "proxy-overspend").harness(), nil), task, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	if served.Load() > e.a.Budget+1000 || r.TokensIn+r.TokensOut != served.Load() {
		t.Errorf("budget %d: upstream served %d tokens in %d requests; the ledger says %d", e.a.Budget, served.Load(), requests.Load(), r.TokensIn+r.TokensOut)
	}
	t.Logf("budget %d: upstream served %d tokens in %d requests", e.a.Budget, served.Load(), requests.Load())
}

// MODEL_OPTIONS keys were written over the request's (I1) only key by key:
// an operator who caps each reply with {"max_tokens": 256} was not obeyed
// by an upstream that reads another name for the same limit first (vLLM
// and OpenAI read max_completion_tokens before max_tokens, llama.cpp's
// server n_predict). The harness asks with max_completion_tokens 8000
// (proxy-max-tokens-alias.txtar); the fake upstream applies vLLM's rule and
// records the limit it generated under, which must be the operator's.
func TestOperatorsMaxTokensCapsEveryAlias(t *testing.T) {
	slow(t)
	t.Parallel()
	var most atomic.Int64
	e := newEnv(t, repeat(fakemodel.Step{Func: func(r fakemodel.Request) fakemodel.Step {
		var body struct {
			MaxTokens           int64  `json:"max_tokens"`
			MaxCompletionTokens *int64 `json:"max_completion_tokens"`
		}
		json.Unmarshal(r.Body, &body)
		limit := body.MaxTokens
		if body.MaxCompletionTokens != nil {
			limit = *body.MaxCompletionTokens
		}
		if limit > most.Load() {
			most.Store(limit)
		}
		return fakemodel.Step{Text: "ok", In: 20, Out: 5}
	}}, 10)...)
	e.a.Options = `{"max_tokens":256}`
	task := addTask(t, e.suite, "train", "alias")
	if _, err := e.a.RunTask(ctx(), e.hostile(t, attackFor(t, "proxy-max-tokens-alias").harness(), nil), task, 0, true); err != nil {
		t.Fatal(err)
	}
	t.Logf("the operator's MODEL_OPTIONS max_tokens 256; the upstream generated under a limit of %d", most.Load())
	if most.Load() > 256 {
		t.Errorf("a reply was allowed %d tokens, past the operator's max_tokens of 256", most.Load())
	}
}
