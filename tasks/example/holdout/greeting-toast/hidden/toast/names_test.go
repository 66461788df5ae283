package toast

import "testing"

func TestProperNameWhiteSpace(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{" luca ", "Luca"},
		{"\tmei", "Mei"},
		{"o'neil", "O'neil"},
	} {
		if got := properName(c.in); got != c.want {
			t.Errorf("properName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestToastBlank(t *testing.T) {
	if got := Toast(" \t "); got != "Raise your glasses to !" {
		t.Fatalf("Toast of blanks = %q", got)
	}
}
