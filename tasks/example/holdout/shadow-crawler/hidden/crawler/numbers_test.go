package crawler

import "testing"

func TestParseBadNumbers(t *testing.T) {
	for _, in := range []string{"depth = deep", "name = x\ndelay = 0.5s", "delay = 4\ndepth =", "depth = 1.5"} {
		if s, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %+v with no error", in, s)
		}
	}
	s, err := Parse("delay = 250\ndepth = 5")
	if err != nil || s.Depth != 5 || s.Delay != 250 {
		t.Fatalf("Parse = %+v, %v", s, err)
	}
}
