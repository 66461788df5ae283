package weekday

import "testing"

func TestShiftBackwards(t *testing.T) {
	for _, c := range []struct {
		i, offset int
		want      string
	}{
		{0, -1, "Sun"},
		{1, -3, "Sat"},
		{6, -7, "Sun"},
		{2, -15, "Tue"},
	} {
		if got := Shift(c.i, c.offset); got != c.want {
			t.Errorf("Shift(%d, %d) = %q, want %q", c.i, c.offset, got, c.want)
		}
	}
}
