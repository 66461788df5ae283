package laptime

import "testing"

func TestSeconds(t *testing.T) {
	for in, want := range map[string]int{"48s": 48, "1m": 60, "1m05s": 65, "3m20s": 200, "0m7s": 7} {
		got, err := Seconds(in)
		if err != nil || got != want {
			t.Errorf("Seconds(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}
