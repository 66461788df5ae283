// Package serve is the HTTP front door: POST /v1/ask for the agent's own
// request shape, and an OpenAI-compatible POST /v1/chat/completions (streaming
// too) so that any OpenAI client can use the agent as a model.
package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"ratchet/door"
)

// Handler serves a door. Project is used when a chat request names none.
type Handler struct {
	Door    *door.Door
	Project string
}

func (h Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/ask":
		h.ask(w, r)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions":
		h.chat(w, r)
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		writeJSON(w, 200, map[string]any{"object": "list", "data": []any{map[string]any{"id": "ratchet", "object": "model", "owned_by": "ratchet"}}})
	default:
		fail(w, http.StatusNotFound, "not found: use POST /v1/ask or POST /v1/chat/completions")
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func fail(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]any{"error": map[string]any{"message": msg, "type": http.StatusText(code)}})
}

// failFor maps Ask's errors onto statuses.
func failFor(w http.ResponseWriter, err error) {
	var bad door.BadRequest
	switch {
	case errors.As(err, &bad) && strings.Contains(bad.Msg, "limit is"):
		fail(w, http.StatusRequestEntityTooLarge, err.Error())
	case errors.As(err, &bad):
		fail(w, http.StatusBadRequest, err.Error())
	case strings.HasPrefix(err.Error(), "no model configured"):
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

func (h Handler) ask(w http.ResponseWriter, r *http.Request) {
	var req door.Request
	if !decode(w, r, &req) {
		return
	}
	rec, err := h.Door.Ask(r.Context(), req, nil)
	if err != nil {
		failFor(w, err)
		return
	}
	writeJSON(w, http.StatusOK, rec)
}

type chatRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
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
	return fmt.Sprintf("%s\n\n---\noutcome: %s after %d steps; files changed: %s; tests before: %s; tests after: %s; session: %s; record: %s",
		strings.TrimSpace(rec.Answer), rec.Outcome, rec.Steps, changed, rec.TestsBefore, rec.TestsAfter, rec.Session, rec.ID)
}

// chat runs the last user message as a request. The project comes from the
// X-Ratchet-Project header, metadata.project, or the server's default; the
// session from X-Ratchet-Session or metadata.session.
func (h Handler) chat(w http.ResponseWriter, r *http.Request) {
	var req chatRequest
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
	if !req.Stream {
		rec, err := h.Door.Ask(r.Context(), dr, nil)
		if err != nil {
			failFor(w, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "object": "chat.completion", "created": created, "model": "ratchet",
			"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": Summary(rec)}, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": 0, "completion_tokens": rec.Tokens, "total_tokens": rec.Tokens}})
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
		b, _ := json.Marshal(map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": "ratchet",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	progress := writerFunc(func(p []byte) { chunk(map[string]any{"content": string(p)}, nil) })
	rec, err := h.Door.Ask(r.Context(), dr, progress)
	if err != nil && !started {
		failFor(w, err)
		return
	}
	if err != nil {
		chunk(map[string]any{"content": "\nerror: " + err.Error()}, nil)
	} else {
		chunk(map[string]any{"content": "\n" + Summary(rec)}, nil)
	}
	chunk(map[string]any{}, "stop")
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
