package departures

import "testing"

func TestClockTimeBeforeMidnight(t *testing.T) {
	for _, c := range []struct {
		m    int
		want string
	}{
		{-1, "23:59"},
		{-60, "23:00"},
		{-1470, "23:30"},
		{-3000, "22:00"},
	} {
		if got := ClockTime(c.m); got != c.want {
			t.Errorf("ClockTime(%d) = %q, want %q", c.m, got, c.want)
		}
	}
}
