package attendance

import "testing"

func TestLineQuotes(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"Jo \"JJ\" Smith", "late"}, "\"Jo \"\"JJ\"\" Smith\",late"},
		{[]string{"note\nsecond line", "x"}, "\"note\nsecond line\",x"},
		{[]string{"\"", ""}, "\"\"\"\","},
	} {
		if got := Line(c.in); got != c.want {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
