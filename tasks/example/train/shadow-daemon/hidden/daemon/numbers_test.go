package daemon

import "testing"

func TestParseBadNumbers(t *testing.T) {
	for _, in := range []string{"port = eighty", "name = x\nworkers = 3x", "workers = 4\nport =", "port = 1.5"} {
		if s, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %+v with no error", in, s)
		}
	}
	s, err := Parse("workers = 16\nport = 9090")
	if err != nil || s.Port != 9090 || s.Workers != 16 {
		t.Fatalf("Parse = %+v, %v", s, err)
	}
}
