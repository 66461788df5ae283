package compass

import "testing"

func TestTurnBackwards(t *testing.T) {
	for _, c := range []struct {
		i, offset int
		want      string
	}{
		{0, -1, "NW"},
		{1, -3, "W"},
		{7, -8, "NW"},
		{2, -17, "NE"},
	} {
		if got := Turn(c.i, c.offset); got != c.want {
			t.Errorf("Turn(%d, %d) = %q, want %q", c.i, c.offset, got, c.want)
		}
	}
}
