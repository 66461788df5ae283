package signage

import "testing"

func TestFit(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"Corner Bakery", 20, "Corner Bakery"},
		{"Corner Bakery", 7, "Corne.."},
	} {
		if got := Fit(c.in, c.n); got != c.want {
			t.Errorf("Fit(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
