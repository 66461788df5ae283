package welcome

import "testing"

func TestBanner(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"maria", "Welcome aboard, Maria."},
		{"  jon ", "Welcome aboard, Jon."},
	} {
		if got := Banner(c.in); got != c.want {
			t.Errorf("Banner(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
