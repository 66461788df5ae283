package editors

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The editors' settings files are JSON with comments and trailing commas
// (VS Code and Zed write them so). To add one entry without losing the
// user's comments or layout, the file is parsed into byte spans and edited
// as text; nothing else in it is rewritten.

// node is one parsed value: its byte span and, for an object, its members.
type node struct {
	start, end int
	object     bool
	open       int // offset of '{' for an object
	members    []member
}

type member struct {
	key string
	val node
}

// find returns the member named key.
func (n node) find(key string) (node, bool) {
	for _, m := range n.members {
		if m.key == key {
			return m.val, true
		}
	}
	return node{}, false
}

type parser struct {
	src []byte
	pos int
}

// parseJSONC parses src as one JSON value, allowing // and /* */ comments
// and trailing commas. Errors name the line.
func parseJSONC(src []byte) (node, error) {
	p := &parser{src: src}
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		p.pos = len("\uFEFF") // a byte order mark, which some Windows editors write
	}
	v, err := p.value()
	if err != nil {
		return node{}, err
	}
	if err := p.skip(); err != nil {
		return node{}, err
	}
	if p.pos < len(src) {
		return node{}, p.errorf("unexpected %q after the value", src[p.pos])
	}
	return v, nil
}

func (p *parser) errorf(format string, args ...any) error {
	line := 1 + bytes.Count(p.src[:min(p.pos, len(p.src))], []byte("\n"))
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
}

// skip moves past whitespace and comments.
func (p *parser) skip() error {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case bytes.HasPrefix(p.src[p.pos:], []byte("//")):
			end := bytes.IndexByte(p.src[p.pos:], '\n')
			if end < 0 {
				p.pos = len(p.src)
			} else {
				p.pos += end + 1
			}
		case bytes.HasPrefix(p.src[p.pos:], []byte("/*")):
			end := bytes.Index(p.src[p.pos+2:], []byte("*/"))
			if end < 0 {
				return p.errorf("unterminated /* comment")
			}
			p.pos += end + 4
		default:
			return nil
		}
	}
	return nil
}

func (p *parser) value() (node, error) {
	if err := p.skip(); err != nil {
		return node{}, err
	}
	if p.pos >= len(p.src) {
		return node{}, p.errorf("unexpected end of file")
	}
	switch p.src[p.pos] {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		start := p.pos
		if _, err := p.str(); err != nil {
			return node{}, err
		}
		return node{start: start, end: p.pos}, nil
	}
	return p.literal()
}

func (p *parser) object() (node, error) {
	n := node{start: p.pos, object: true, open: p.pos}
	p.pos++ // '{'
	for {
		if err := p.skip(); err != nil {
			return node{}, err
		}
		if p.pos < len(p.src) && p.src[p.pos] == '}' {
			p.pos++
			n.end = p.pos
			return n, nil
		}
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			return node{}, p.errorf("expected a quoted key or '}'")
		}
		key, err := p.str()
		if err != nil {
			return node{}, err
		}
		if err := p.skip(); err != nil {
			return node{}, err
		}
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return node{}, p.errorf("expected ':' after key %q", key)
		}
		p.pos++
		v, err := p.value()
		if err != nil {
			return node{}, err
		}
		n.members = append(n.members, member{key, v})
		if err := p.comma('}'); err != nil {
			return node{}, err
		}
	}
}

func (p *parser) array() (node, error) {
	n := node{start: p.pos}
	p.pos++ // '['
	for {
		if err := p.skip(); err != nil {
			return node{}, err
		}
		if p.pos < len(p.src) && p.src[p.pos] == ']' {
			p.pos++
			n.end = p.pos
			return n, nil
		}
		if _, err := p.value(); err != nil {
			return node{}, err
		}
		if err := p.comma(']'); err != nil {
			return node{}, err
		}
	}
}

// comma consumes the ',' after an element, or checks that close follows.
func (p *parser) comma(close byte) error {
	if err := p.skip(); err != nil {
		return err
	}
	if p.pos < len(p.src) && p.src[p.pos] == ',' {
		p.pos++
		return nil
	}
	if p.pos < len(p.src) && p.src[p.pos] == close {
		return nil
	}
	return p.errorf("expected ',' or %q", close)
}

// str reads one string literal and returns its decoded text.
func (p *parser) str() (string, error) {
	start := p.pos
	p.pos++ // opening quote
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case '\\':
			p.pos += 2
		case '\n':
			return "", p.errorf("newline inside a string")
		case '"':
			p.pos++
			var s string
			if err := json.Unmarshal(p.src[start:p.pos], &s); err != nil {
				return "", p.errorf("bad string: %v", err)
			}
			return s, nil
		default:
			p.pos++
		}
	}
	return "", p.errorf("unterminated string")
}

// literal reads a number, true, false or null.
func (p *parser) literal() (node, error) {
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			p.pos++
			continue
		}
		break
	}
	if p.pos == start || !json.Valid(p.src[start:p.pos]) {
		p.pos = start
		return node{}, p.errorf("expected a value")
	}
	return node{start: start, end: p.pos}, nil
}
