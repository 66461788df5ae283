package mailer

import "testing"

func TestParseBadNumbers(t *testing.T) {
	for _, in := range []string{"batch = lots", "name = x\nrate = 1e3", "rate = 4\nbatch =", "batch = 1.5"} {
		if s, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %+v with no error", in, s)
		}
	}
	s, err := Parse("rate = 30\nbatch = 250")
	if err != nil || s.BatchSize != 250 || s.RatePerMin != 30 {
		t.Fatalf("Parse = %+v, %v", s, err)
	}
}
