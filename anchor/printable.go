package anchor

import (
	"strings"
	"unicode"
)

// Printable is how anything a harness, a candidate, an evolve tree or a
// trace wrote is shown, by the anchor and by ratchet: one line, with every
// control or format character (ESC and so CSI and OSC, C1, bidi overrides)
// and invalid UTF-8 replaced, at most limit runes.
func Printable(s string, limit int) string {
	if r := []rune(s); len(r) > limit {
		s = string(r[:limit]) + "…"
	}
	return strings.Map(printable, s)
}

func printable(c rune) rune {
	switch {
	case c == '\n' || c == '\t' || c == '\r':
		return ' '
	case unicode.In(c, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp):
		return '?'
	}
	return c
}
