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
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// ProxyConfig says where a run's proxy forwards and how much it may spend.
// API "anthropic" is served at /v1/messages, anything else as "openai" at
// /v1/chat/completions. Model is pinned into every request; Key is sent
// upstream and scrubbed from every reply. Budget counts input and output
// tokens together. Seed is the openai "seed" of every request. Options
// (MODEL_OPTIONS, a JSON object) are the operator's: its keys override the
// request's, and a request may carry them (the harness client merges them in).
type ProxyConfig struct {
	API, Upstream, Model, Key, Options string
	Budget                             int64
	Seed                               int
	Replies                            *replies // the reply cache of the run, or nil
}

// Proxy is a run's only way to the model: an HTTP server on a unix socket
// bound into the sandbox. It serves POST to the API's chat path and nothing
// else, one request at a time. Every body is decoded along the API's wire
// (openAIWire, anthropicWire) and only what was decoded is forwarded,
// re-encoded with the operator's model pinned and the reply capped to the
// budget left; the credential is injected and the usage the upstream
// reports is charged. A reply without a complete usage report is charged
// all it could have cost.
type Proxy struct {
	c              ProxyConfig
	path           string
	header         http.Header // to the upstream: the credential, never the sandbox's
	secret         *strings.Replacer
	srv            *http.Server
	wire           *wire          // the API's request, with the operator's options as data
	options        map[string]any // the operator's, decoded
	mu             sync.Mutex     // held over a whole request, so requests go one at a time
	in, out, conns atomic.Int64   // tokens charged; connections open
	failure        atomic.Pointer[string]
	life           context.Context // a reply is read to its end, unless Close cancels this
	stop           context.CancelFunc
}

// StartProxy serves on the unix socket at sock until Close.
func StartProxy(sock string, c ProxyConfig) (*Proxy, error) {
	p := &Proxy{c: c, path: "/v1/chat/completions", wire: openAIWire()}
	p.life, p.stop = context.WithCancel(context.Background())
	p.header = http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer " + c.Key}}
	if c.API == "anthropic" {
		p.path = "/v1/messages"
		p.header = http.Header{"Content-Type": {"application/json"}, "X-Api-Key": {c.Key},
			"Anthropic-Version": {"2023-06-01"}}
		p.wire = anthropicWire()
	}
	dec := json.NewDecoder(strings.NewReader(cmp.Or(c.Options, "{}")))
	dec.UseNumber()
	dec.Decode(&p.options) // an object: checked at start-up, and the operator's
	for k := range p.options {
		p.wire.keys[k] = data // a harness merges them in, and they are replaced
	}
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return nil, fmt.Errorf("start model proxy: %w", err)
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
		c.Close() // refused: a harness that opened too many has nothing to lose
	}
	if s == http.StateClosed {
		p.conns.Add(-1)
	}
}

// Close stops the proxy. It returns once the request in flight, if any, has
// been charged; a request still waiting is refused.
func (p *Proxy) Close() error {
	err := p.srv.Close()
	p.stop() // a reply still coming is cut where it is, and kept (forward)
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
	body, _ := p.rewrite([]byte(`{"messages":[{"role":"user","content":"Say OK."}]}`), 1) // valid in both APIs
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	resp, err := p.send(ctx, body)
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
	body := map[string]any{"type": "error", "error": map[string]string{"type": kind, "message": msg}}
	json.NewEncoder(w).Encode(body) // a harness that hung up is not told
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
		msg := fmt.Sprintf("the run's token budget is spent (%d tokens left)", max(left, 0))
		refuse(w, http.StatusTooManyRequests, "budget_exhausted", msg)
		return
	}
	fwd, err := p.rewrite(body, left-est)
	if err != nil {
		refuse(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	in, out, failure := p.c.Replies.exchange(w, fwd, func(w http.ResponseWriter) (int64, int64, string, bool) {
		return p.forward(w, fwd, est, left-est)
	})
	p.in.Add(in)
	p.out.Add(out)
	p.failure.Store(&failure)
}

// rewrite decodes body along the proxy's wire and returns the body to
// forward, re-encoded from what it decoded: the operator's options and
// model, the reply capped to limit tokens, and in openai mode the seed and,
// for a stream, its usage. It is the one place where the bytes sent
// upstream are made.
func (p *Proxy) rewrite(body []byte, limit int64) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	v, err := p.wire.decode(dec, "request", 0)
	req, isObject := v.(map[string]any)
	// Valid: one JSON value, and nothing after it. An invalid UTF-8 byte would
	// be decoded to U+FFFD and sent on as three bytes, past what est charged.
	if !json.Valid(body) || !utf8.Valid(body) || !isObject {
		return nil, cmp.Or(err, errNotObject)
	}
	for k, v := range p.options {
		req[k] = v // the operator's (I1), over the harness's
	}
	for _, k := range []string{"max_tokens", "max_completion_tokens", "n_predict"} {
		if n := positive(p.options[k]); n > 0 {
			limit = min(limit, n) // the operator's limit holds for every name of it
		}
	}
	// max_tokens is always set, as Ollama reads no other; the other limits
	// are capped where given (llama.cpp's server prefers n_predict), and so
	// are n, the number of replies, and vLLM's best_of, the number drawn.
	caps := map[string]int64{"max_tokens": limit, "max_completion_tokens": limit, "n_predict": limit,
		"n": 1, "best_of": 1}
	for k, most := range caps {
		if n := positive(req[k]); n > 0 || k == "max_tokens" {
			req[k] = min(cmp.Or(n, most), most)
		}
	}
	req["model"] = p.c.Model
	if p.c.API != "anthropic" {
		req["seed"] = p.c.Seed
	}
	if p.c.API != "anthropic" && req["stream"] == true {
		req["stream_options"] = map[string]bool{"include_usage": true}
	}
	return json.Marshal(req)
}

// positive is a decoded JSON number as a positive integer, or 0.
func positive(v any) int64 {
	s, _ := v.(json.Number)
	n, _ := strconv.ParseInt(string(s), 10, 64)
	return max(n, 0)
}

// send posts body to the upstream's chat path with the credential: every
// byte the proxy sends upstream goes through here.
func (p *Proxy) send(ctx context.Context, body []byte) (*http.Response, error) {
	url := strings.TrimRight(p.c.Upstream, "/") + p.path
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = p.header
	return http.DefaultTransport.RoundTrip(req)
}

// forward sends body upstream and relays the reply. It returns the tokens to
// charge and any failure of the upstream's. A reply is charged its usage;
// one that may have been served without a complete usage report (cut off,
// or with none, or no reply at all) is charged at least est and limit. A
// status of 300 or more serves none, and an upstream never reached none.
//
// The reply is read to its end even when the harness hangs up on it, and
// kept says it is the draw to record: read to the end, or cut by the run's
// end (Close). A harness that could hang up on the draws it dislikes, unrecorded,
// would leave a candidate a fresh draw exactly where the incumbent lost.
func (p *Proxy) forward(w http.ResponseWriter, body []byte, est, limit int64) (
	in, out int64, failure string, kept bool) {
	resp, err := p.send(p.life, body)
	if err != nil {
		failure = p.secret.Replace("model server unreachable: " + err.Error())
		refuse(w, http.StatusBadGateway, "api_error", failure)
		if p.life.Err() != nil {
			return est, limit, "", false // the run ended first, maybe served
		}
		var op *net.OpError
		if errors.As(err, &op) && op.Op == "dial" {
			return 0, 0, failure, false // it reached no one
		}
		return est, limit, failure, false // the upstream may have served it
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
	// a longer reply is cut, and charged in full
	br := bufio.NewReader(io.TeeReader(http.MaxBytesReader(nil, resp.Body, 64<<20), &whole))
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
	kept = failure == "" && (err == io.EOF || p.life.Err() != nil)
	if resp.StatusCode >= 300 || (in+out > 0 && err == io.EOF) {
		return in, out, failure, kept
	}
	return max(in, est), max(out, limit), failure, kept
}

// countUsage raises in and out to the usage in one JSON message: OpenAI's,
// or Anthropic's (top-level, or in message_start's message), cache
// included. Anthropic streams a running output total, hence the maximum.
func countUsage(s string, in, out *int64) {
	// encoding/json matches keys to field names without regard to case.
	type counts struct {
		Prompt_tokens, Completion_tokens, Input_tokens, Output_tokens int64
		Cache_creation_input_tokens, Cache_read_input_tokens          int64
	}
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
