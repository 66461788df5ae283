package anchor

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ProxyConfig says where a run's proxy forwards and how much it may spend.
// API "anthropic" is served at /v1/messages, anything else as "openai" at
// /v1/chat/completions. Model is pinned into every request; Key is sent
// upstream and scrubbed from every reply. Budget counts input and output
// tokens together. Seed is the openai "seed" of every request. Options
// (MODEL_OPTIONS, a JSON object) are the operator's: its keys override the
// request's.
type ProxyConfig struct {
	API, Upstream, Model, Key, Options string
	Budget                             int64
	Seed                               int
	Replies                            *replies // the reply cache of the run, or nil
}

// Proxy is a run's only way to the model: an HTTP server on a unix socket
// bound into the sandbox. It serves POST to the API's chat path and nothing
// else, one request at a time. Every body is re-encoded with the operator's
// model pinned and the reply capped to the budget left; the credential is
// injected and the usage the upstream reports is charged. A reply without a
// complete usage report is charged all it could have cost.
type Proxy struct {
	c              ProxyConfig
	path           string
	header         http.Header // to the upstream: the credential, never the sandbox's
	secret         *strings.Replacer
	srv            *http.Server
	mu             sync.Mutex   // held over a whole request, so requests go one at a time
	in, out, conns atomic.Int64 // tokens charged; connections open
	failure        atomic.Pointer[string]
}

// StartProxy serves on the unix socket at sock until Close.
func StartProxy(sock string, c ProxyConfig) (*Proxy, error) {
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return nil, fmt.Errorf("start model proxy: %w", err)
	}
	p := &Proxy{c: c, path: "/v1/chat/completions", header: http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer " + c.Key}}}
	if c.API == "anthropic" {
		p.path = "/v1/messages"
		p.header = http.Header{"Content-Type": {"application/json"}, "X-Api-Key": {c.Key}, "Anthropic-Version": {"2023-06-01"}}
	}
	p.secret = strings.NewReplacer(cmp.Or(c.Key, "\x00"), "[credential]") // with no key, a byte no reply has
	// Any other method is 405, any other path 404.
	mux := http.NewServeMux()
	mux.Handle("POST "+p.path, p)
	p.srv = &http.Server{Handler: mux, MaxHeaderBytes: 64 << 10, ConnState: p.admit}
	go p.srv.Serve(ln)
	return p, nil
}

// admit closes any connection beyond the 64th open one: each holds memory
// of the anchor's, and a sandbox can open thousands.
func (p *Proxy) admit(c net.Conn, s http.ConnState) {
	if s == http.StateNew && p.conns.Add(1) > 64 {
		c.Close()
	}
	if s == http.StateClosed {
		p.conns.Add(-1)
	}
}

// Close stops the proxy. It returns once the request in flight, if any, has
// been charged; a request still waiting is refused.
func (p *Proxy) Close() error {
	err := p.srv.Close()
	p.mu.Lock()
	p.c.Budget = 0
	p.mu.Unlock()
	return err
}

// Used returns the tokens charged so far.
func (p *Proxy) Used() (in, out int64) { return p.in.Load(), p.out.Load() }

// Failure is "" unless the last exchange with the upstream failed (no
// answer, or a 5xx status); then it says why in one line, without the
// credential. Whose failure it was, Probe tells.
func (p *Proxy) Failure() string { return *cmp.Or(p.failure.Load(), new("")) }

// Probe asks the upstream a one-token question of the anchor's own, charged
// to no run. A failure of the model server is the machine's only when the
// server fails this too; when it answers, the harness's own request
// provoked the failure (a context too long, a dropped connection), and a
// harness must not turn a lost run into a redraw.
func (p *Proxy) Probe(ctx context.Context) error {
	body, err := p.rewrite([]byte(`{"messages":[{"role":"user","content":"Say OK."}]}`), 1)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(p.c.Upstream, "/")+p.path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header = p.header
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return errors.New(p.secret.Replace(err.Error()))
	}
	resp.Body.Close()
	if resp.StatusCode >= 500 { // a 4xx is an answer: the server is up
		return fmt.Errorf("the model server answered the anchor's probe with %s", resp.Status)
	}
	return nil
}

// refuse answers with an error of the proxy's own, which SDKs must not retry.
func refuse(w http.ResponseWriter, code int, kind, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("x-should-retry", "false")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]any{"type": "error", "error": map[string]string{"type": kind, "message": msg}})
}

// ServeHTTP serves one chat request, holding the proxy for the whole
// exchange: it is refused (413, 429, 400) or re-encoded, forwarded, relayed
// and charged.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 4<<20))
	if err != nil {
		refuse(w, http.StatusRequestEntityTooLarge, "request_too_large", "the request body must be at most 4 MiB")
		return
	}
	// est bounds the input tokens: a byte-level tokenizer makes at most one
	// token of a byte ("1,1,1,..." comes close).
	left, est := p.c.Budget-p.in.Load()-p.out.Load(), int64(len(body))
	if est >= left {
		refuse(w, http.StatusTooManyRequests, "budget_exhausted", fmt.Sprintf("the run's token budget is spent (%d tokens left)", max(left, 0)))
		return
	}
	fwd, err := p.rewrite(body, left-est)
	if err != nil {
		refuse(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	in, out, failure := p.c.Replies.exchange(w, fwd, func(w http.ResponseWriter) (int64, int64, string, bool) {
		in, out, failure := p.forward(w, r, fwd, est, left-est)
		return in, out, failure, failure == "" && r.Context().Err() == nil
	})
	p.in.Add(in)
	p.out.Add(out)
	p.failure.Store(&failure)
}

// rewrite reads body as exactly one JSON object with unique top-level keys,
// all in lower-case snake_case, and returns the body to forward: the
// operator's model, the reply capped to limit tokens, and in openai mode the
// seed and, for a stream, its usage.
func (p *Proxy) rewrite(body []byte, limit int64) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') || !json.Valid(body) { // Valid: nothing follows the object
		return nil, fmt.Errorf("the request body must be exactly one JSON object")
	}
	req := map[string]any{} // values are json.RawMessage until the proxy sets them
	var text struct{ Messages, System any }
	if json.Unmarshal(body, &text) != nil {
		return nil, fmt.Errorf("the request body must be exactly one JSON object")
	}
	if kind := cmp.Or(media(text.Messages, false), media(text.System, true)); kind != "" {
		return nil, fmt.Errorf("content of type %q is not allowed: only text goes to the model (a provider bills media by its own count, and fetches a URL from the network)", kind)
	}
	for dec.More() {
		t, err := dec.Token()
		key, _ := t.(string)
		var v json.RawMessage
		// Both APIs write their keys in lower-case snake_case. Any other key
		// is refused, as Go servers such as Ollama match keys without regard
		// to case ("Stream", "MODEL", or "ſtream" with a long s), and so is
		// a key given twice.
		if err != nil || req[key] != nil || strings.Trim(key, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" || dec.Decode(&v) != nil {
			return nil, fmt.Errorf("the request body's keys must be unique and in lower-case snake_case; %q is not", key)
		}
		req[key] = v
	}
	var options map[string]json.RawMessage
	json.Unmarshal([]byte(cmp.Or(p.c.Options, "{}")), &options) // an object: checked at start-up
	for k, v := range options {
		req[k] = v // the operator's (I1), over the harness's
	}
	for _, k := range []string{"max_tokens", "max_completion_tokens", "n_predict"} {
		var n int64
		if json.Unmarshal(options[k], &n) == nil && n > 0 {
			limit = min(limit, n) // the operator's limit holds for every name of it
		}
	}
	// max_tokens is always set, as Ollama reads no other; the other limits
	// are capped where given (llama.cpp's server prefers n_predict), and so
	// are n, the number of replies, and vLLM's best_of, the number drawn.
	for k, most := range map[string]int64{"max_tokens": limit, "max_completion_tokens": limit, "n_predict": limit, "n": 1, "best_of": 1} {
		n := most
		if v, ok := req[k].(json.RawMessage); ok && (json.Unmarshal(v, &n) != nil || n < 1) {
			return nil, fmt.Errorf("%q must be a positive integer", k)
		}
		if _, ok := req[k]; ok || k == "max_tokens" {
			req[k] = min(n, most)
		}
	}
	// Server-side tools (web search, fetch, code execution, MCP) would give
	// the model a way to the network from the sandbox (I2): only the
	// harness's own function tools pass.
	var tools []struct{ Type string }
	if raw, ok := req["tools"].(json.RawMessage); ok && json.Unmarshal(raw, &tools) != nil {
		return nil, fmt.Errorf("tools must be a list of tool objects")
	}
	for _, tool := range tools {
		if tool.Type != "" && tool.Type != "function" && tool.Type != "custom" {
			return nil, fmt.Errorf("the server tool %q is not allowed: the sandbox has no network", tool.Type)
		}
	}
	for _, k := range []string{"web_search_options", "mcp_servers", "container"} {
		if _, ok := req[k]; ok {
			return nil, fmt.Errorf("%q is not allowed: the sandbox has no network", k)
		}
	}
	req["model"] = p.c.Model
	if p.c.API != "anthropic" {
		req["seed"] = p.c.Seed
	}
	if stream, _ := req["stream"].(json.RawMessage); p.c.API != "anthropic" && string(stream) == "true" {
		req["stream_options"] = map[string]bool{"include_usage": true}
	}
	return json.Marshal(req)
}

// forward sends body upstream and relays the reply. It returns the tokens to
// charge and any failure of the upstream's. A reply is charged its usage;
// one that may have been served without a complete usage report (cut off,
// or with none, or no reply at all) is charged at least est and limit. A
// status of 300 or more serves none, and an upstream never reached none.
func (p *Proxy) forward(w http.ResponseWriter, r *http.Request, body []byte, est, limit int64) (in, out int64, failure string) {
	var resp *http.Response
	up, err := http.NewRequestWithContext(r.Context(), http.MethodPost, strings.TrimRight(p.c.Upstream, "/")+p.path, bytes.NewReader(body))
	if err == nil {
		up.Header = p.header
		resp, err = http.DefaultTransport.RoundTrip(up)
	}
	if err != nil {
		failure = p.secret.Replace("model server unreachable: " + err.Error())
		refuse(w, http.StatusBadGateway, "api_error", failure)
		if r.Context().Err() != nil {
			return est, limit, "" // the harness hung up: its own doing, and maybe served
		}
		var op *net.OpError
		if errors.As(err, &op) && op.Op == "dial" {
			return 0, 0, failure // it reached no one
		}
		return est, limit, failure // the upstream may have served it
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 {
		failure = p.secret.Replace("model server answered " + resp.Status)
	}
	w.Header().Set("Content-Type", resp.Header.Get("Content-Type")) // no other upstream header is relayed
	w.WriteHeader(resp.StatusCode)
	// The reply is relayed line by line (SSE events are lines), so a stream's
	// usage is counted and the credential scrubbed as it goes. A reply that
	// is one JSON document, maybe over many lines, is counted whole at the end.
	var whole bytes.Buffer
	br := bufio.NewReader(io.TeeReader(http.MaxBytesReader(nil, resp.Body, 64<<20), &whole)) // a longer reply is cut, and charged in full
	for err == nil {
		var line string
		line, err = br.ReadString('\n')
		io.WriteString(w, p.secret.Replace(line))
		if line == "\n" {
			http.NewResponseController(w).Flush() // the end of an SSE event
		}
		countUsage(strings.TrimPrefix(line, "data:"), &in, &out)
	}
	countUsage(whole.String(), &in, &out)
	if resp.StatusCode >= 300 || (in+out > 0 && err == io.EOF) {
		return in, out, failure
	}
	return max(in, est), max(out, limit), failure
}

// textParts are the content parts the proxy forwards: text, and the tool
// calls and results of the harness's own tools.
var textParts = []string{"text", "tool_use", "tool_result", "thinking", "redacted_thinking", "refusal"}

// media returns what is not text in a list of messages or, with parts, of
// content parts (as decoded JSON): a part of another type, or of none (some
// servers read a part by its keys), and Ollama's images field; else "".
func media(list any, parts bool) string {
	items, _ := list.([]any)
	for _, it := range items {
		item, _ := it.(map[string]any)
		kind, _ := item["type"].(string)
		if _, images := item["images"]; images {
			return "images"
		}
		if (parts && !slices.Contains(textParts, kind)) || (!parts && kind != "") {
			return cmp.Or(kind, "a part without a type")
		}
		if m := media(item["content"], true); m != "" {
			return m
		}
	}
	return ""
}

// countUsage raises in and out to the usage in one JSON message: OpenAI's,
// or Anthropic's (top-level, or in message_start's message), cache
// included. Anthropic streams a running output total, hence the maximum.
func countUsage(s string, in, out *int64) {
	// encoding/json matches keys to field names without regard to case.
	type counts struct{ Prompt_tokens, Completion_tokens, Input_tokens, Output_tokens, Cache_creation_input_tokens, Cache_read_input_tokens int64 }
	var v struct {
		Usage   counts
		Message struct{ Usage counts }
	}
	json.Unmarshal([]byte(s), &v) // a line that is not JSON has no usage
	for _, c := range []counts{v.Usage, v.Message.Usage} {
		*in = max(*in, c.Prompt_tokens+c.Input_tokens+c.Cache_creation_input_tokens+c.Cache_read_input_tokens)
		*out = max(*out, c.Completion_tokens+c.Output_tokens)
	}
}
