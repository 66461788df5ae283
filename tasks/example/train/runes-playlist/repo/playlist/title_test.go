package playlist

import "testing"

func TestShortTitle(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"Bohemian Rhapsody", 40, "Bohemian Rhapsody"},
		{"Bohemian Rhapsody", 6, "Bohem…"},
		{"Yesterday", 9, "Yesterday"},
	} {
		if got := ShortTitle(c.in, c.n); got != c.want {
			t.Errorf("ShortTitle(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
