package parkingtime

import "testing"

func TestMinutes(t *testing.T) {
	for in, want := range map[string]int{"40m": 40, "2h": 120, "2h15m": 135, "10h1m": 601} {
		got, err := Minutes(in)
		if err != nil || got != want {
			t.Errorf("Minutes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}
