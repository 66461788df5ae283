package trace

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
)

// MaxLine is the most Read keeps of one line. Where a run's trace is kept
// (the anchor's copy, the door's) the whole file is capped at this size, so
// only a trace read from elsewhere can have a longer line.
const MaxLine = 64 << 20

// Errors a Line may carry besides the JSON decoder's own.
var (
	ErrUnknownType = errors.New("trace: unknown event type")
	ErrLineTooLong = errors.New("trace: line longer than MaxLine")
)

// Line is one line of a trace as read back. A trace is data the harness
// wrote, and the harness is code a model edits: any line may be garbage,
// and a reader shows it as data, never trusts it.
type Line struct {
	Raw  []byte // the line without its newline, at most MaxLine bytes
	TS   string // "" when absent or not a string
	Type Type   // "" when absent or not a string
	// Event is the decoded event, or nil when the line is not a JSON
	// object, its type is unknown or a value does not fit its type; Err
	// then says which.
	Event Event
	Err   error
}

// Parse reads one line, given without its newline. It keeps raw.
func Parse(raw []byte) Line {
	l := Line{Raw: raw}
	// Raw, not any: a header key holding a huge list or object is skipped
	// over, never built up (decoded as any, a line of 64 MiB took gigabytes).
	var h struct {
		TS   json.RawMessage `json:"ts"`
		Type json.RawMessage `json:"type"`
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		l.Err = err
		return l
	}
	l.TS = text(h.TS)
	l.Type = Type(text(h.Type))
	l.Event, l.Err = decode(l.Type, raw)
	return l
}

// text is a JSON value that is a string, or "".
func text(v json.RawMessage) string {
	var s string
	if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &s) != nil {
		return ""
	}
	return s
}

func decode(t Type, raw []byte) (Event, error) {
	switch t {
	case TypeModelCall:
		return into[ModelCall](raw)
	case TypeModelReply:
		return into[ModelReply](raw)
	case TypeToolCall:
		return into[ToolCall](raw)
	case TypeToolResult:
		return into[ToolResult](raw)
	case TypeError:
		return into[Error](raw)
	case TypeDone:
		return into[Done](raw)
	}
	return nil, ErrUnknownType
}

func into[E Event](raw []byte) (Event, error) {
	var e E
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil, err
	}
	return e, nil
}

// Read reads a whole trace. Lines that are not events come back as lines
// with a nil Event, in their place: a last line cut short by a killed run,
// a line of another program, an event type this package does not know. The
// error is r's alone; the lines read before it are returned with it.
func Read(r io.Reader) ([]Line, error) {
	return read(r, MaxLine)
}

func read(r io.Reader, limit int) ([]Line, error) {
	br := bufio.NewReader(r)
	var lines []Line
	for {
		raw, long, err := readLine(br, limit)
		if err == nil || len(raw) > 0 {
			if long {
				lines = append(lines, Line{Raw: raw, Err: ErrLineTooLong})
			} else {
				lines = append(lines, Parse(raw))
			}
		}
		if err == io.EOF {
			return lines, nil
		}
		if err != nil {
			return lines, err
		}
	}
}

// readLine reads up to the next newline and returns the line without it,
// keeping at most limit bytes of it; long says some were dropped. At the
// end of r it returns io.EOF with what followed the last newline.
func readLine(br *bufio.Reader, limit int) (line []byte, long bool, err error) {
	for {
		frag, err := br.ReadSlice('\n')
		if err == nil {
			frag = frag[:len(frag)-1]
		}
		keep := min(len(frag), limit-len(line))
		line = append(line, frag[:keep]...)
		long = long || keep < len(frag)
		if err != bufio.ErrBufferFull {
			return line, long, err
		}
	}
}
