package badge

import "testing"

func TestWelcome(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ada", "Welcome, Ada!"},
		{"  grace  ", "Welcome, Grace!"},
	} {
		if got := Welcome(c.in); got != c.want {
			t.Errorf("Welcome(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
