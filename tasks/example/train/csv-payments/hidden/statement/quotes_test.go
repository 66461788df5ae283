package statement

import "testing"

func TestLineQuotes(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"note", "the \"big\" one"}, "note,\"the \"\"big\"\" one\""},
		{[]string{"a\nb", "\""}, "\"a\nb\",\"\"\"\""},
		{[]string{"", "x"}, ",x"},
	} {
		if got := Line(c.in); got != c.want {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
