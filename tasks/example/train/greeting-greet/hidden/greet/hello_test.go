package greet

import "testing"

func TestHello(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ada", "Hello, Ada!"},
		{"  grace  ", "Hello, Grace!"},
	} {
		if got := Hello(c.in); got != c.want {
			t.Errorf("Hello(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
