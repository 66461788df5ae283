package statement

import "testing"

func TestLine(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"2024-01-02", "rent", "-900"}, "2024-01-02,rent,-900"},
		{[]string{"2024-01-03", "Smith, J.", "50"}, "2024-01-03,\"Smith, J.\",50"},
	} {
		if got := Line(c.in); got != c.want {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
