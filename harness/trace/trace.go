// Package trace writes the run's trace: one JSON object per line, each line
// written with a single write so that a killed run leaves a readable file.
// It also reads a trace back (read.go) for the programs that show one.
package trace

import (
	"encoding/json"
	"os"
	"sync"
	"time"
)

// Writer appends events to a trace file. It is safe for concurrent use.
type Writer struct {
	mu  sync.Mutex
	f   *os.File
	now func() time.Time
}

// Open creates or appends to the trace file at path.
func Open(path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &Writer{f: f, now: time.Now}, nil
}

// Emit writes one typed event. An event that cannot be encoded (a model's
// tool call whose arguments are not JSON) is written as an Error saying
// why, so that the trace still shows that something happened there.
func (w *Writer) Emit(e Event) {
	if w == nil {
		return
	}
	body, err := json.Marshal(e)
	if err != nil {
		e = Error{Message: "trace: " + err.Error()}
		body, _ = json.Marshal(e)
	}
	w.write(join(w.stamp(e.Type()), body))
}

// Event writes one free-form event: the tools' way to leave evidence
// (core.Tracer). fields must not contain "ts" or "type".
func (w *Writer) Event(typ string, fields map[string]any) {
	if w == nil {
		return
	}
	e := make(map[string]any, len(fields)+2)
	for k, v := range fields {
		e[k] = v
	}
	e["ts"] = w.now().UTC().Format(time.RFC3339Nano)
	e["type"] = typ
	line, err := json.Marshal(e)
	if err != nil {
		line, _ = json.Marshal(map[string]any{"ts": e["ts"], "type": TypeError, "message": "trace: " + err.Error()})
	}
	w.write(line)
}

// stamp is the object {"ts": now, "type": typ}, the keys every line has.
func (w *Writer) stamp(typ Type) []byte {
	b, _ := json.Marshal(header{TS: w.now().UTC().Format(time.RFC3339Nano), Type: typ})
	return b
}

// join merges two encoded JSON objects into one. The event structs carry no
// ts or type of their own, so callers cannot get them wrong; splicing the
// encodings adds them without a second pass through a map.
func join(head, body []byte) []byte {
	line := head[:len(head)-1]
	if len(body) > 2 {
		line = append(line, ',')
	}
	return append(line, body[1:]...)
}

func (w *Writer) write(line []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.f.Write(append(line, '\n'))
}

// Close closes the file.
func (w *Writer) Close() error { return w.f.Close() }
