package middleware

import (
	"fmt"
	"unicode/utf8"

	"ratchet/harness/core"
)

const (
	truncateOver = 6000
	keepHead     = 3000
	keepTail     = 2500
)

type truncation struct{}

// Truncation shortens a tool result over 6000 characters once, when it is
// produced, keeping its head and tail and saying how much was cut. History
// is never edited afterwards.
func Truncation() any { return truncation{} }

func (truncation) AfterTool(_ *core.State, _ core.ToolCall, result string) string {
	if len(result) <= truncateOver {
		return result
	}
	head, tail := result[:keepHead], result[len(result)-keepTail:]
	for len(head) > 0 && !utf8.ValidString(head) {
		head = head[:len(head)-1]
	}
	for len(tail) > 0 && !utf8.ValidString(tail) {
		tail = tail[1:]
	}
	cut := len(result) - len(head) - len(tail)
	return fmt.Sprintf("%s\n[... truncated %d characters ...]\n%s", head, cut, tail)
}
