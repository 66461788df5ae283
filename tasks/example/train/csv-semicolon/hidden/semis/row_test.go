package semis

import "testing"

func TestRow(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"Müller", "3,50"}, "Müller;3,50"},
		{[]string{"a;b", "c"}, "\"a;b\";c"},
	} {
		if got := Row(c.in); got != c.want {
			t.Errorf("Row(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
