// Package fakemodel is a scripted model server for tests. It speaks the
// OpenAI chat completions and the Anthropic messages wire formats, streaming
// included, in the payload shapes the providers document, and records every
// request it receives. It is test support: nothing in the harness imports it.
package fakemodel

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Call is one scripted tool call. Args is the raw JSON arguments text.
type Call struct {
	ID   string
	Name string
	Args string
}

// Step is one scripted reply. A zero Status gives a normal reply built from
// Text, Calls and the token counts; a non-zero Status replies with that
// status and Body. Raw, when set, is sent as the 200 body verbatim. Func,
// when set, computes the step from the request instead.
type Step struct {
	Text      string
	Calls     []Call
	In, Out   int
	Status    int
	Body      string
	Raw       string
	Func      func(r Request) Step
	CacheRead int           // anthropic: cache_read_input_tokens
	Pace      time.Duration // streaming: a pause after each event, as a model generating
}

// Request is what the server received.
type Request struct {
	Path   string
	Header http.Header
	Body   []byte
}

// Messages returns the raw JSON elements of the request's "messages" array.
func (r Request) Messages() []json.RawMessage {
	var b struct {
		Messages []json.RawMessage `json:"messages"`
	}
	json.Unmarshal(r.Body, &b)
	return b.Messages
}

// Server replies with its script, one step per request, then with a final
// "done" text once the script runs out.
type Server struct {
	mu       sync.Mutex
	steps    []Step
	requests []Request
	srv      *http.Server
	ln       net.Listener
	URL      string // base URL for TCP listeners
	// Version, when set before the first request, makes GET /api/version
	// answer it as Ollama does; any other GET is 404 and no step.
	Version string
}

// Start serves the script on a loopback TCP port.
func Start(steps ...Step) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	return serve(ln, "http://"+ln.Addr().String(), steps), nil
}

// StartUnix serves the script on a unix socket.
func StartUnix(path string, steps ...Step) (*Server, error) {
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	return serve(ln, "", steps), nil
}

func serve(ln net.Listener, url string, steps []Step) *Server {
	s := &Server{steps: steps, ln: ln, URL: url}
	s.srv = &http.Server{Handler: s}
	go s.srv.Serve(ln)
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Requests returns a copy of the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Add appends steps to the script.
func (s *Server) Add(steps ...Step) {
	s.mu.Lock()
	s.steps = append(s.steps, steps...)
	s.mu.Unlock()
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		if r.URL.Path != "/api/version" || s.Version == "" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, `{"version":%q}`, s.Version)
		return
	}
	body, _ := io.ReadAll(r.Body)
	req := Request{Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	step := Step{Text: "done", In: 10, Out: 2}
	if len(s.steps) > 0 {
		step, s.steps = s.steps[0], s.steps[1:]
	}
	s.mu.Unlock()
	if step.Func != nil {
		step = step.Func(req)
	}
	if step.Pace > 0 {
		w = &paced{ResponseWriter: w, pace: step.Pace}
	}
	switch {
	case step.Status != 0:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(step.Status)
		io.WriteString(w, step.Body)
		return
	case step.Raw != "":
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, step.Raw)
		return
	}
	var opts struct {
		Stream        bool `json:"stream"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	json.Unmarshal(body, &opts)
	anthropic := strings.HasSuffix(r.URL.Path, "/v1/messages")
	switch {
	case anthropic && opts.Stream:
		streamAnthropic(w, step)
	case anthropic:
		writeJSON(w, anthropicMessage(step, step.Out))
	case opts.Stream:
		streamOpenAI(w, step, opts.StreamOptions.IncludeUsage)
	default:
		writeJSON(w, openAICompletion(step))
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func callID(c Call, i int) string {
	if c.ID != "" {
		return c.ID
	}
	return fmt.Sprintf("call_%d", i)
}

func openAICompletion(st Step) map[string]any {
	msg := map[string]any{"role": "assistant", "content": st.Text}
	finish := "stop"
	if len(st.Calls) > 0 {
		var calls []map[string]any
		for i, c := range st.Calls {
			calls = append(calls, map[string]any{"id": callID(c, i), "type": "function",
				"function": map[string]any{"name": c.Name, "arguments": c.Args}})
		}
		msg["tool_calls"] = calls
		finish = "tool_calls"
		if st.Text == "" {
			msg["content"] = nil
		}
	}
	return map[string]any{
		"id": "chatcmpl-fake", "object": "chat.completion", "created": 1, "model": "fake",
		"choices": []map[string]any{{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": st.In, "completion_tokens": st.Out, "total_tokens": st.In + st.Out},
	}
}

func anthropicMessage(st Step, out int) map[string]any {
	content := []map[string]any{}
	if st.Text != "" {
		content = append(content, map[string]any{"type": "text", "text": st.Text})
	}
	stop := "end_turn"
	for i, c := range st.Calls {
		var input any = map[string]any{}
		json.Unmarshal([]byte(c.Args), &input)
		content = append(content, map[string]any{"type": "tool_use", "id": callID(c, i), "name": c.Name, "input": input})
		stop = "tool_use"
	}
	return map[string]any{
		"id": "msg_fake", "type": "message", "role": "assistant", "model": "fake",
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": st.In, "output_tokens": out,
			"cache_creation_input_tokens": 0, "cache_read_input_tokens": st.CacheRead},
	}
}

// paced pauses after each event it flushes.
type paced struct {
	http.ResponseWriter
	pace time.Duration
}

func (p *paced) Flush() {
	if f, ok := p.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
	time.Sleep(p.pace)
}

func sse(w http.ResponseWriter, event string, v any) {
	b, _ := json.Marshal(v)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func streamOpenAI(w http.ResponseWriter, st Step, includeUsage bool) {
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1, "model": "fake",
			"choices": []map[string]any{{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	sse(w, "", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	for _, word := range strings.SplitAfter(st.Text, " ") {
		if word != "" {
			sse(w, "", chunk(map[string]any{"content": word}, nil))
		}
	}
	for i, c := range st.Calls {
		sse(w, "", chunk(map[string]any{"tool_calls": []map[string]any{{"index": i, "id": callID(c, i), "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": ""}}}}, nil))
		sse(w, "", chunk(map[string]any{"tool_calls": []map[string]any{{"index": i, "function": map[string]any{"arguments": c.Args}}}}, nil))
	}
	finish := "stop"
	if len(st.Calls) > 0 {
		finish = "tool_calls"
	}
	sse(w, "", chunk(map[string]any{}, finish))
	if includeUsage {
		sse(w, "", map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1, "model": "fake",
			"choices": []any{}, "usage": map[string]any{"prompt_tokens": st.In, "completion_tokens": st.Out, "total_tokens": st.In + st.Out}})
	}
	io.WriteString(w, "data: [DONE]\n\n")
}

func streamAnthropic(w http.ResponseWriter, st Step) {
	w.Header().Set("Content-Type", "text/event-stream")
	start := anthropicMessage(Step{In: st.In, CacheRead: st.CacheRead}, 1)
	start["stop_reason"] = nil // documented: null until message_delta says why
	sse(w, "message_start", map[string]any{"type": "message_start", "message": start})
	idx := 0
	if st.Text != "" {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{"type": "text", "text": ""}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": idx, "delta": map[string]any{"type": "text_delta", "text": st.Text}})
		sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
		idx++
	}
	stop := "end_turn"
	for i, c := range st.Calls {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": idx,
			"content_block": map[string]any{"type": "tool_use", "id": callID(c, i), "name": c.Name, "input": map[string]any{}}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": idx, "delta": map[string]any{"type": "input_json_delta", "partial_json": c.Args}})
		sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
		idx++
		stop = "tool_use"
	}
	// Output tokens in message_delta are cumulative; send two to check that
	// counters keep the latest rather than adding them up.
	sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": nil}, "usage": map[string]any{"output_tokens": st.Out / 2}})
	sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": st.Out}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}
