package signage

import (
	"testing"
	"unicode/utf8"
)

func TestFitNonASCII(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"Bäckerei Müller", 8, "Bäcker.."},
		{"Crème brûlée café", 12, "Crème brûl.."},
		{"北京烤鸭店", 4, "北京.."},
		{"Åre Skidshop", 12, "Åre Skidshop"},
		{"Ölçü", 4, "Ölçü"},
	} {
		got := Fit(c.in, c.n)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("Fit(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
