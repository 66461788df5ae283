package thumbnailer

import "testing"

func TestParseBadNumbers(t *testing.T) {
	for _, in := range []string{"width = wide", "name = x\nquality = 80%", "quality = 4\nwidth =", "width = 1.5"} {
		if s, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %+v with no error", in, s)
		}
	}
	s, err := Parse("quality = 95\nwidth = 640")
	if err != nil || s.Width != 640 || s.Quality != 95 {
		t.Fatalf("Parse = %+v, %v", s, err)
	}
}
