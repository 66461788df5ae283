package subject

import "testing"

func TestTrim(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"Quarterly report", 30, "Quarterly report"},
		{"Quarterly report", 10, "Quarterly…"},
		{"Hi", 2, "Hi"},
	} {
		if got := Trim(c.in, c.n); got != c.want {
			t.Errorf("Trim(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
