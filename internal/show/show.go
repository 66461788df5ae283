// Package show is how ratchet prints what an agent wrote: every string that
// comes from a run, a candidate, an evolve tree, a trace or a session
// reaches a terminal, a log line, the dashboard or MCP through
// anchor.Printable, the one sanitiser (control and format characters,
// ESC and so CSI and OSC, C1 and bidi overrides, replaced; length capped).
//
// Line is for one-line fields (a table cell, a summary). Text keeps line
// breaks and tabs for multi-line text. Guard, called once by the ratchet
// command, sends all of the process's standard output and error through
// Writer, so that a print site that forgets Line or Text still cannot send
// an escape sequence to the terminal; only a field's own newlines can then
// start a line of their own, which is what Line is for.
package show

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"ratchet/anchor"
)

// Line is s as one printable line of at most limit runes.
func Line(s string, limit int) string { return anchor.Printable(s, limit) }

// Text is s with its line breaks and tabs kept and everything else through
// anchor.Printable, at most limit runes in all.
func Text(s string, limit int) string {
	if r := []rune(s); len(r) > limit {
		s = string(r[:limit]) + "…"
	}
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		cells := strings.Split(strings.TrimSuffix(line, "\r"), "\t")
		for j, c := range cells {
			cells[j] = anchor.Printable(c, math.MaxInt)
		}
		lines[i] = strings.Join(cells, "\t")
	}
	return strings.Join(lines, "\n")
}

// JSONLimit caps each string of a JSON answer (a trace's tool output is
// the longest).
const JSONLimit = 1 << 20

// JSON is v as JSON with every string in it, keys too, through Text: JSON
// escapes C0 characters, which a client then decodes and prints, and keeps
// C1 and bidi controls raw. Objects come out with their keys sorted.
func JSON(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // numbers pass as they were written
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, err
	}
	return json.Marshal(clean(x))
}

// Clean is v with every string in it through Text, by way of JSON: for a
// value that is handed on typed (an MCP tool's structured result).
func Clean[T any](v T) (T, error) {
	var out T
	b, err := JSON(v)
	if err == nil {
		err = json.Unmarshal(b, &out)
	}
	return out, err
}

func clean(x any) any {
	switch x := x.(type) {
	case string:
		return Text(x, JSONLimit)
	case []any:
		for i := range x {
			x[i] = clean(x[i])
		}
	case map[string]any:
		y := make(map[string]any, len(x))
		for k, v := range x {
			y[Text(k, 200)] = clean(v)
		}
		return y
	}
	return x
}

// Writer is Text for a stream: what it is given is written at once, but
// for a rune cut between two writes, which waits for the rest.
type Writer struct {
	w    io.Writer
	tail []byte
}

// NewWriter returns a Writer onto w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

func (s *Writer) Write(p []byte) (int, error) {
	b := append(s.tail, p...)
	cut := len(b)
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				cut = i
			}
			break
		}
	}
	s.tail = bytes.Clone(b[cut:])
	_, err := io.WriteString(s.w, Text(string(b[:cut]), math.MaxInt))
	return len(p), err
}

// Flush writes a rune left unfinished (as a replacement character).
func (s *Writer) Flush() error {
	_, err := io.WriteString(s.w, Text(string(s.tail), math.MaxInt))
	s.tail = nil
	return err
}

// Terminal is the process's standard error as it was before Guard: for a
// child whose own output is trusted to be printable (the anchor, which
// sanitises what it prints) and that draws live progress on a terminal.
var Terminal = os.Stderr

// Guard replaces os.Stdout and os.Stderr with pipes read through Writer
// onto the real ones, for everything the process prints and every child
// it starts with them. The function it returns puts them back and waits,
// a second at most, for what is still in the pipes; call it before exit.
func Guard() (done func()) {
	var wg sync.WaitGroup
	var closers []func()
	for _, f := range []**os.File{&os.Stdout, &os.Stderr} {
		r, w, err := os.Pipe()
		if err != nil {
			continue // printed unguarded rather than not at all
		}
		real := *f
		*f = w
		wg.Go(func() {
			out := NewWriter(real)
			io.Copy(out, r)
			out.Flush()
			r.Close()
		})
		closers = append(closers, func() { *f = real; w.Close() })
	}
	return func() {
		for _, c := range closers {
			c()
		}
		drained := make(chan struct{})
		go func() { wg.Wait(); close(drained) }()
		select {
		case <-drained:
		case <-time.After(time.Second): // a child that outlives us keeps a pipe open
		}
	}
}

// Count is n and a noun, the noun plural unless n is 1: "1 step", "4 steps".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
