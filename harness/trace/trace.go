// Package trace writes the run's trace: one JSON object per line, each line
// written with a single write so that a killed run leaves a readable file.
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

// Event writes one event. fields must not contain "ts" or "type".
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
		line, _ = json.Marshal(map[string]any{"ts": e["ts"], "type": "error", "message": "trace: " + err.Error()})
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.f.Write(append(line, '\n'))
}

// Close closes the file.
func (w *Writer) Close() error { return w.f.Close() }
