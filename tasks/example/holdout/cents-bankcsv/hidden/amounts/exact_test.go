package amounts

import "testing"

func TestParseExact(t *testing.T) {
	for in, want := range map[string]int64{"0.57": 57, "1.13": 113, "4.35": 435, "10,000.07": 1000007, "-0.29": -29} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}
