package countdown

import "testing"

func TestWallClock(t *testing.T) {
	for _, c := range []struct {
		m    int
		want string
	}{
		{30, "00:30"},
		{600, "10:00"},
		{1439, "23:59"},
		{2000, "09:20"},
	} {
		if got := WallClock(c.m); got != c.want {
			t.Errorf("WallClock(%d) = %q, want %q", c.m, got, c.want)
		}
	}
}
