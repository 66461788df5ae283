package compass

import "testing"

func TestTurn(t *testing.T) {
	for _, c := range []struct {
		i, offset int
		want      string
	}{
		{0, 0, "N"},
		{0, 1, "NE"},
		{7, 1, "N"},
		{1, 9, "E"},
	} {
		if got := Turn(c.i, c.offset); got != c.want {
			t.Errorf("Turn(%d, %d) = %q, want %q", c.i, c.offset, got, c.want)
		}
	}
}
