package mail

import "testing"

func TestSalute(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ada", "Dear, Ada!"},
		{"  grace  ", "Dear, Grace!"},
	} {
		if got := Salute(c.in); got != c.want {
			t.Errorf("Salute(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
