package countdown

import "testing"

func TestWallClockBeforeMidnight(t *testing.T) {
	for _, c := range []struct {
		m    int
		want string
	}{
		{-15, "23:45"},
		{-720, "12:00"},
		{-1441, "23:59"},
		{-2939, "23:01"},
	} {
		if got := WallClock(c.m); got != c.want {
			t.Errorf("WallClock(%d) = %q, want %q", c.m, got, c.want)
		}
	}
}
