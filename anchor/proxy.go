package anchor

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
)

// Proxy is a run's only way to the model. It listens on a unix socket bound
// into the sandbox, injects the credential, forwards to the upstream, counts
// tokens from usage (streams included) and answers 429 once the budget is
// spent. It parses nothing but usage, and the credential never appears in
// what it returns.
type Proxy struct {
	API, Upstream, key string
	Budget             int64
	mu                 sync.Mutex
	In, Out            int64
	srv                *http.Server
}

// StartProxy serves on the unix socket at sock.
func StartProxy(sock, api, upstream, key string, budget int64) (*Proxy, error) {
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return nil, err
	}
	p := &Proxy{API: api, Upstream: strings.TrimRight(upstream, "/"), key: key, Budget: budget}
	p.srv = &http.Server{Handler: p}
	go p.srv.Serve(ln)
	return p, nil
}

// Close stops the proxy.
func (p *Proxy) Close() error { return p.srv.Close() }

// Used returns the tokens counted so far.
func (p *Proxy) Used() (in, out int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.In, p.Out
}

func (p *Proxy) fail(w http.ResponseWriter, code int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("x-should-retry", "false")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": p.scrub(msg)}})
}

func (p *Proxy) scrub(s string) string {
	if p.key == "" {
		return s
	}
	return strings.ReplaceAll(s, p.key, "[credential]")
}

func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if in, out := p.Used(); in+out >= p.Budget {
		p.fail(w, http.StatusTooManyRequests, "budget_exhausted", "the run's token budget is spent")
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		p.fail(w, http.StatusBadRequest, "bad_request", "read request: "+err.Error())
		return
	}
	var req map[string]json.RawMessage
	if p.API == "openai" && json.Unmarshal(body, &req) == nil && string(req["stream"]) == "true" {
		// Ask for the usage chunk at the end of the stream, or it cannot be counted.
		req["stream_options"] = json.RawMessage(`{"include_usage":true}`)
		body, _ = json.Marshal(req)
	}
	up, err := http.NewRequestWithContext(r.Context(), r.Method, p.Upstream+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		p.fail(w, http.StatusBadGateway, "proxy_error", err.Error())
		return
	}
	for _, h := range []string{"Content-Type", "Accept", "anthropic-version", "anthropic-beta"} {
		if v := r.Header.Get(h); v != "" {
			up.Header.Set(h, v)
		}
	}
	if p.key != "" && p.API == "anthropic" {
		up.Header.Set("x-api-key", p.key)
	} else if p.key != "" {
		up.Header.Set("Authorization", "Bearer "+p.key)
	}
	resp, err := http.DefaultTransport.RoundTrip(up)
	if err != nil {
		p.fail(w, http.StatusBadGateway, "upstream_unreachable", "model server: "+err.Error())
		return
	}
	defer resp.Body.Close()
	for k, vs := range resp.Header {
		for _, v := range vs {
			if k != "Content-Length" && (p.key == "" || !strings.Contains(v, p.key)) {
				w.Header().Add(k, v)
			}
		}
	}
	w.WriteHeader(resp.StatusCode)
	var u usageCount
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		fl, _ := w.(http.Flusher)
		br := bufio.NewReader(resp.Body)
		for {
			line, err := br.ReadString('\n')
			if data, ok := strings.CutPrefix(line, "data:"); ok {
				u.add([]byte(data))
			}
			io.WriteString(w, p.scrub(line))
			if fl != nil && line == "\n" {
				fl.Flush()
			}
			if err != nil {
				break
			}
		}
	} else {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
		u.add(b)
		io.WriteString(w, p.scrub(string(b)))
	}
	p.mu.Lock()
	p.In += u.in
	p.Out += u.out
	p.mu.Unlock()
}

// usageCount keeps the latest usage seen in one response. OpenAI reports
// prompt and completion tokens once; Anthropic reports input (plus cache
// tokens) in message_start and a running output total in message_delta.
type usageCount struct{ in, out int64 }

type usage struct {
	Prompt     int64 `json:"prompt_tokens"`
	Completion int64 `json:"completion_tokens"`
	Input      int64 `json:"input_tokens"`
	Output     int64 `json:"output_tokens"`
	CacheNew   int64 `json:"cache_creation_input_tokens"`
	CacheRead  int64 `json:"cache_read_input_tokens"`
}

func (c *usageCount) add(b []byte) {
	if !bytes.Contains(b, []byte(`"usage"`)) {
		return
	}
	var v struct {
		Usage   *usage `json:"usage"`
		Message struct {
			Usage *usage `json:"usage"`
		} `json:"message"`
	}
	if json.Unmarshal(b, &v) != nil {
		return
	}
	for _, u := range []*usage{v.Message.Usage, v.Usage} {
		if u == nil {
			continue
		}
		if in := u.Prompt + u.Input + u.CacheNew + u.CacheRead; in > 0 {
			c.in = in
		}
		if out := u.Completion + u.Output; out > 0 {
			c.out = out
		}
	}
}
