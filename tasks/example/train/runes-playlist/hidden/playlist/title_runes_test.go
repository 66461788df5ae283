package playlist

import (
	"testing"
	"unicode/utf8"
)

func TestShortTitleNonASCII(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"Für Elise", 4, "Für…"},
		{"Café del Mar", 4, "Caf…"},
		{"Ça plane pour moi", 17, "Ça plane pour moi"},
		{"東京の夜", 4, "東京の夜"},
		{"東京の夜の歌です", 5, "東京の夜…"},
		{"Smörgåsbord", 8, "Smörgås…"},
	} {
		got := ShortTitle(c.in, c.n)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("ShortTitle(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
