package printer

import "testing"

func TestParseBadNumbers(t *testing.T) {
	for _, in := range []string{"copies = two", "name = x\ndpi = 600dpi", "dpi = 4\ncopies =", "copies = 1.5"} {
		if s, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %+v with no error", in, s)
		}
	}
	s, err := Parse("dpi = 600\ncopies = 2")
	if err != nil || s.Copies != 2 || s.DPI != 600 {
		t.Fatalf("Parse = %+v, %v", s, err)
	}
}
