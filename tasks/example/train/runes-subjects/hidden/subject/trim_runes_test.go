package subject

import (
	"testing"
	"unicode/utf8"
)

func TestTrimNonASCII(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"Rückmeldung zum Angebot", 12, "Rückmeldung…"},
		{"Реквизиты счёта", 6, "Рекви…"},
		{"会議の議事録について", 5, "会議の議…"},
		{"Año nuevo", 4, "Año…"},
		{"ÀÉÎÕÜ", 3, "ÀÉ…"},
	} {
		got := Trim(c.in, c.n)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("Trim(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
