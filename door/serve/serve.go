// Package serve is the HTTP front door: POST /v1/ask for the agent's own
// request shape, and an OpenAI-compatible POST /v1/chat/completions (streaming
// too) so that any OpenAI client can use the agent as a model.
//
// Anything that can reach the port is assumed hostile (a web page, DNS
// rebinding, another user of the machine). Every request must carry the
// operator's bearer token; a request with an Origin, or a Host that is not
// the bound address, is refused unless the operator allowed it; bodies are
// JSON only; nothing in a request names a command; projects lie in the
// operator's roots (checked by the door).
package serve

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	"ratchet/door"
	"ratchet/internal/show"
)

// Handler serves a door. Project is used when a chat request names none.
type Handler struct {
	Door    *door.Door
	Project string
	Token   string    // required on every request as "Authorization: Bearer TOKEN"; empty refuses all
	Hosts   []string  // Host header values accepted: the bound address, and what --allow-host adds
	Origins []string  // Origin header values accepted (--allow-origin); a request with any other Origin is refused
	Log     io.Writer // one line per request (method, path, project, outcome, tokens, time); nil for none
}

// entry is what the request line of the log says of one request.
type entry struct {
	project, outcome string
	in, out          int
}

// logLine writes the log's line for a request that took since.
func (h Handler) logLine(r *http.Request, e *entry, since time.Time) {
	if h.Log == nil {
		return
	}
	project := e.project
	if project == "" {
		project = "-"
	}
	fmt.Fprintf(h.Log, "ratchet: %s %s project=%s outcome=%s tokens=%d (in %d, out %d) %s\n", r.Method, r.URL.Path, project,
		strings.Join(strings.Fields(e.outcome), "_"), e.in+e.out, e.in, e.out, time.Since(since).Round(time.Millisecond))
}

// done fills the log entry from a request's end.
func (e *entry) done(rec door.Record, err error) {
	e.project, e.in, e.out = first(rec.Project, e.project), rec.TokensIn, rec.TokensOut
	switch {
	case err != nil && rec.ID == "":
		e.outcome = "refused"
	case err != nil:
		e.outcome = "error"
	default:
		e.outcome = rec.Outcome
	}
}

// ServeHTTP checks who is asking before it reads anything of the request.
func (h Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.cors(w, r) {
		return
	}
	e := &entry{outcome: "ok"}
	defer h.logLine(r, e, time.Now())
	if code, msg := h.check(r); code != 0 {
		if code == http.StatusUnauthorized {
			w.Header().Set("WWW-Authenticate", `Bearer realm="ratchet"`)
		}
		e.outcome = fmt.Sprintf("refused %d", code)
		fail(w, code, msg)
		return
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/ask":
		h.ask(w, r, e)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions":
		h.chat(w, r, e)
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		writeJSON(w, 200, map[string]any{"object": "list", "data": []any{map[string]any{"id": "ratchet", "object": "model", "owned_by": "ratchet"}}})
	default:
		e.outcome = "not found"
		fail(w, http.StatusNotFound, "not found: use POST /v1/ask or POST /v1/chat/completions")
	}
}

// cors lets a page from an origin the operator allowed (--allow-origin) call
// the door from a browser: its requests get Access-Control-Allow-Origin, so
// the page may read the answers, errors included. A browser asks first with
// a preflight OPTIONS that carries no token; cors answers it and reports
// true. Any other origin gets no CORS header, and check refuses it.
func (h Handler) cors(w http.ResponseWriter, r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" || !slices.Contains(h.Origins, origin) || !hostAllowed(r.Host, h.Hosts) {
		return false
	}
	w.Header().Set("Access-Control-Allow-Origin", origin)
	w.Header().Add("Vary", "Origin")
	if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
		return false
	}
	w.Header().Set("Access-Control-Allow-Methods", "GET, POST")
	w.Header().Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
	w.Header().Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
	return true
}

// check returns the status refusing r, or 0 to let it through.
func (h Handler) check(r *http.Request) (int, string) {
	switch {
	case !hostAllowed(r.Host, h.Hosts):
		return http.StatusForbidden, fmt.Sprintf("host %q is not this server's address; the operator can allow it with --allow-host", r.Host)
	case r.Header.Get("Origin") != "" && !slices.Contains(h.Origins, r.Header.Get("Origin")):
		return http.StatusForbidden, fmt.Sprintf("requests from origin %q are refused; the operator can allow it with --allow-origin", r.Header.Get("Origin"))
	case !h.tokenOK(r.Header.Get("Authorization")):
		return http.StatusUnauthorized, "missing or wrong token: send Authorization: Bearer TOKEN (printed by ratchet serve at start, or RATCHET_TOKEN)"
	case r.Method == http.MethodPost && !isJSON(r.Header.Get("Content-Type")):
		return http.StatusUnsupportedMediaType, "the body must be JSON: send Content-Type: application/json"
	}
	return 0, ""
}

// tokenOK compares in constant time; hashing first makes the time
// independent of the length too.
func (h Handler) tokenOK(auth string) bool {
	got, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok || h.Token == "" {
		return false
	}
	a, b := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(h.Token))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// hostAllowed matches the Host header against the allowed addresses; an
// allowed name without a port allows it on any port.
func hostAllowed(host string, allowed []string) bool {
	for _, a := range allowed {
		if strings.EqualFold(host, a) {
			return true
		}
		if name, _, err := net.SplitHostPort(host); err == nil && !strings.Contains(a, ":") && strings.EqualFold(name, a) {
			return true
		}
	}
	return false
}

func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "application/json"
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	b, _ := show.JSON(v)     // an answer's text is the agent's: sanitised like every print of it
	w.Write(append(b, '\n')) // a client that hung up has no one to tell
}

func fail(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]any{"error": map[string]any{"message": msg, "type": http.StatusText(code)}})
}

// failFor maps Ask's errors onto statuses by their kind.
func failFor(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, door.ErrTooLarge):
		fail(w, http.StatusRequestEntityTooLarge, err.Error())
	case errors.Is(err, door.ErrForbidden):
		fail(w, http.StatusForbidden, err.Error())
	case errors.Is(err, door.ErrInvalid), errors.Is(err, door.ErrCommand):
		fail(w, http.StatusBadRequest, err.Error())
	case errors.Is(err, door.ErrNoModel):
		fail(w, http.StatusServiceUnavailable, err.Error())
	default:
		fail(w, http.StatusInternalServerError, err.Error())
	}
}

const maxBody = 1 << 20

func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		fail(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is over %d bytes", maxBody))
		return false
	}
	if err := json.Unmarshal(body, v); err != nil {
		fail(w, http.StatusBadRequest, "the body is not the expected JSON: "+err.Error())
		return false
	}
	return true
}

// askBody is /v1/ask's body. Test is read only to refuse it: the test
// command is the operator's, never the caller's.
type askBody struct {
	door.Request
	Test *string `json:"test"`
}

func (h Handler) ask(w http.ResponseWriter, r *http.Request, e *entry) {
	var req askBody
	e.outcome = "refused"
	if !decode(w, r, &req) {
		return
	}
	e.project = req.Project
	if req.Test != nil {
		failFor(w, &door.RequestError{Kind: door.ErrCommand,
			Msg: `this server runs the operator's test command (ratchet serve --test, or detected); leave "test" out of the request`})
		return
	}
	rec, err := h.Door.Ask(r.Context(), req.Request, nil)
	e.done(rec, err)
	if err != nil {
		failFor(w, err)
		return
	}
	code := http.StatusOK
	if rec.ModelDown() {
		code = http.StatusBadGateway // the record is kept and returned, but the agent never heard the model
	}
	writeJSON(w, code, struct {
		door.Record
		ExitStatus int `json:"exit_status"` // as ratchet run --json: 0 done, 1 not done, 3 the model server
	}{rec, rec.ExitStatus()})
}

// modelDown is the message for a request whose model server never answered.
func modelDown(rec door.Record) string {
	return fmt.Sprintf("the model gave no answer (outcome %s): the operator should check the model server "+
		"(MODEL_URL, MODEL_NAME); the record is %s", rec.Outcome, rec.ID)
}

type chatRequest struct {
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
	// With include_usage a stream ends with a chunk of no choices that
	// carries the usage, every chunk before it "usage": null (OpenAI's
	// chat completions streaming).
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	User     string `json:"user"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Metadata map[string]string `json:"metadata"`
}

// text reads a message's content: a string or an array of text parts.
func text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct{ Type, Text string }
	json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// Summary is what a chat client sees of a record.
func Summary(rec door.Record) string {
	changed := "none"
	if len(rec.Changed) > 0 {
		changed = strings.Join(rec.Changed, ", ")
	}
	s := fmt.Sprintf("%s\n\n---\noutcome: %s after %s; files changed: %s; tests before: %s; tests after: %s; session: %s; record: %s\nharness: %s",
		strings.TrimSpace(rec.Answer), rec.Outcome, show.Count(rec.Steps, "step"), changed, rec.TestsBefore, rec.TestsAfter, rec.Session, rec.ID, rec.Harness)
	if len(rec.Withheld) > 0 {
		s += "\nnot written back (dot-paths and links never leave the sandbox): " + strings.Join(rec.Withheld, ", ")
	}
	for _, w := range rec.Warnings {
		s += "\nwarning: " + w
	}
	return show.Text(s, show.JSONLimit)
}

// chat runs the last user message as a request. The project comes from the
// X-Ratchet-Project header, metadata.project, or the server's default; the
// session from X-Ratchet-Session or metadata.session.
func (h Handler) chat(w http.ResponseWriter, r *http.Request, e *entry) {
	var req chatRequest
	e.outcome = "refused"
	if !decode(w, r, &req) {
		return
	}
	var last string
	for _, m := range req.Messages {
		if m.Role == "user" {
			last = text(m.Content)
		}
	}
	dr := door.Request{Text: last, Project: first(r.Header.Get("X-Ratchet-Project"), req.Metadata["project"], h.Project),
		Session: first(r.Header.Get("X-Ratchet-Session"), req.Metadata["session"])}
	id, created := "chatcmpl-"+fmt.Sprint(time.Now().UnixNano()), time.Now().Unix()
	e.project = dr.Project
	if !req.Stream {
		rec, err := h.Door.Ask(r.Context(), dr, nil)
		e.done(rec, err)
		if err != nil {
			failFor(w, err)
			return
		}
		if rec.ModelDown() {
			fail(w, http.StatusBadGateway, modelDown(rec))
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "object": "chat.completion", "created": created, "model": "ratchet",
			"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": Summary(rec)}, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": rec.TokensIn, "completion_tokens": rec.TokensOut, "total_tokens": rec.TokensIn + rec.TokensOut}})
		return
	}
	// Streaming: progress lines as content while the agent works, then the
	// answer. A request that cannot start is an HTTP error, not a stream.
	flusher, _ := w.(http.Flusher)
	started := false
	chunk := func(delta map[string]any, finish any) {
		if !started {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("Cache-Control", "no-cache")
			started = true
		}
		c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": "ratchet",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		if req.StreamOptions.IncludeUsage {
			c["usage"] = nil
		}
		b, _ := show.JSON(c)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	progress := writerFunc(func(p []byte) { chunk(map[string]any{"content": string(p)}, nil) })
	rec, err := h.Door.Ask(r.Context(), dr, progress)
	e.done(rec, err)
	if err != nil && !started {
		failFor(w, err)
		return
	}
	if rec.ModelDown() && !started {
		fail(w, http.StatusBadGateway, modelDown(rec))
		return
	}
	switch {
	case err != nil:
		chunk(map[string]any{"content": "\nerror: " + err.Error()}, nil)
	case rec.ModelDown(): // the stream has begun: the error is its last event, as OpenAI sends one
		b, _ := show.JSON(map[string]any{"error": map[string]any{"message": modelDown(rec), "type": "server_error",
			"code": "model_unavailable"}})
		fmt.Fprintf(w, "data: %s\n\n", b)
		io.WriteString(w, "data: [DONE]\n\n")
		return
	default:
		chunk(map[string]any{"content": "\n" + Summary(rec)}, nil)
	}
	chunk(map[string]any{}, "stop")
	if req.StreamOptions.IncludeUsage {
		b, _ := show.JSON(map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": "ratchet",
			"choices": []any{}, "usage": map[string]any{"prompt_tokens": rec.TokensIn, "completion_tokens": rec.TokensOut,
				"total_tokens": rec.TokensIn + rec.TokensOut}})
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	io.WriteString(w, "data: [DONE]\n\n")
}

type writerFunc func([]byte)

func (f writerFunc) Write(p []byte) (int, error) { f(p); return len(p), nil }

func first(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
