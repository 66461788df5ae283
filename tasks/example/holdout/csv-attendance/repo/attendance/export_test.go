package attendance

import "testing"

func TestLine(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"Ana", "present"}, "Ana,present"},
		{[]string{"Lee, Kim", "absent"}, "\"Lee, Kim\",absent"},
	} {
		if got := Line(c.in); got != c.want {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
