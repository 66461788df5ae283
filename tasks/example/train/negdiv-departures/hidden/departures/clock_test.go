package departures

import "testing"

func TestClockTime(t *testing.T) {
	for _, c := range []struct {
		m    int
		want string
	}{
		{0, "00:00"},
		{75, "01:15"},
		{1439, "23:59"},
		{1445, "00:05"},
		{4920, "10:00"},
	} {
		if got := ClockTime(c.m); got != c.want {
			t.Errorf("ClockTime(%d) = %q, want %q", c.m, got, c.want)
		}
	}
}
