package tabs

import (
	"testing"
	"unicode/utf8"
)

func TestLabelNonASCII(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"Änderungen und Neuigkeiten", 10, "Änderun..."},
		{"日本語のページタイトル", 6, "日本語..."},
		{"Ñandú", 5, "Ñandú"},
		{"Żółć", 4, "Żółć"},
		{"Привет, мир", 7, "Прив..."},
	} {
		got := Label(c.in, c.n)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("Label(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
