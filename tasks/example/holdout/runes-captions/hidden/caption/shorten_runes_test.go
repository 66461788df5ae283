package caption

import (
	"testing"
	"unicode/utf8"
)

func TestShortenNonASCII(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"Überraschung!", 5, "Über~"},
		{"Ελληνικά νησιά", 8, "Ελληνικ~"},
		{"서울 야경", 3, "서울~"},
		{"Niño y perro", 4, "Niñ~"},
		{"Ça déchire", 10, "Ça déchire"},
	} {
		got := Shorten(c.in, c.n)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("Shorten(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
