package invoice

import "testing"

func TestParseAmountExact(t *testing.T) {
	for in, want := range map[string]int64{"0.29": 29, "8.20": 820, "19.99": 1999, "1,000.57": 100057, "-4.35": -435} {
		if got, err := ParseAmount(in); err != nil || got != want {
			t.Errorf("ParseAmount(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}
