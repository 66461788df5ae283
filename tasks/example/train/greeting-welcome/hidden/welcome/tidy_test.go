package welcome

import "testing"

func TestTidyWhiteSpace(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"\tzoe\n", "Zoe"},
		{"\n\nbo ", "Bo"},
		{"eve", "Eve"},
	} {
		if got := tidy(c.in); got != c.want {
			t.Errorf("tidy(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestBannerBlank(t *testing.T) {
	if got := Banner(" \t "); got != "Welcome aboard, ." {
		t.Fatalf("Banner of blanks = %q", got)
	}
}
