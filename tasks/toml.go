package tasks

import (
	"fmt"
	"strings"
)

// TOMLString writes s as a TOML string that task.toml's reader (the
// anchor's) reads back verbatim: a multi-line literal string where it can be,
// so that a prompt reads as written, else a basic string with escapes.
func TOMLString(s string) string {
	control := strings.ContainsFunc(s, func(r rune) bool { return (r < 0x20 || r == 0x7f) && r != '\n' && r != '\t' })
	if strings.Contains(s, "\n") && !strings.Contains(s, "'''") && !strings.HasSuffix(s, "'") && !control {
		return "'''\n" + s + "'''"
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
