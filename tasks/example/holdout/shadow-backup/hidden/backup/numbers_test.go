package backup

import "testing"

func TestParseBadNumbers(t *testing.T) {
	for _, in := range []string{"retain = a week", "name = x\ninterval = 6h", "interval = 4\nretain =", "retain = 1.5"} {
		if s, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %+v with no error", in, s)
		}
	}
	s, err := Parse("interval = 6\nretain = 30")
	if err != nil || s.Retain != 30 || s.Interval != 6 {
		t.Fatalf("Parse = %+v, %v", s, err)
	}
}
