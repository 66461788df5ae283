package tabs

import "testing"

func TestLabel(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"Release notes", 20, "Release notes"},
		{"Release notes", 8, "Relea..."},
		{"Docs", 4, "Docs"},
	} {
		if got := Label(c.in, c.n); got != c.want {
			t.Errorf("Label(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
