package seasons

import "testing"

func TestSeasonBackwards(t *testing.T) {
	for _, c := range []struct {
		i, offset int
		want      string
	}{
		{0, -1, "winter"},
		{1, -3, "autumn"},
		{3, -4, "winter"},
		{2, -9, "summer"},
	} {
		if got := Season(c.i, c.offset); got != c.want {
			t.Errorf("Season(%d, %d) = %q, want %q", c.i, c.offset, got, c.want)
		}
	}
}
