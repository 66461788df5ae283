package sms

import "testing"

func TestPreview(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"See you at noon", 30, "See you at noon"},
		{"See you at noon", 8, "See you…"},
	} {
		if got := Preview(c.in, c.n); got != c.want {
			t.Errorf("Preview(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
