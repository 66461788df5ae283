package weekday

import "testing"

func TestShift(t *testing.T) {
	for _, c := range []struct {
		i, offset int
		want      string
	}{
		{0, 0, "Mon"},
		{0, 1, "Tue"},
		{6, 1, "Mon"},
		{1, 8, "Wed"},
	} {
		if got := Shift(c.i, c.offset); got != c.want {
			t.Errorf("Shift(%d, %d) = %q, want %q", c.i, c.offset, got, c.want)
		}
	}
}
