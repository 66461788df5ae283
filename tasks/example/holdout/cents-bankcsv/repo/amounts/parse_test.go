package amounts

import "testing"

func TestParse(t *testing.T) {
	for in, want := range map[string]int64{"3": 300, "2,500.75": 250075, " 0.5 ": 50} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	if _, err := Parse("n/a"); err == nil {
		t.Error("Parse(n/a) gave no error")
	}
}
