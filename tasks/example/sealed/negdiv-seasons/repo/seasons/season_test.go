package seasons

import "testing"

func TestSeason(t *testing.T) {
	for _, c := range []struct {
		i, offset int
		want      string
	}{
		{0, 0, "spring"},
		{0, 1, "summer"},
		{3, 1, "spring"},
		{1, 5, "autumn"},
	} {
		if got := Season(c.i, c.offset); got != c.want {
			t.Errorf("Season(%d, %d) = %q, want %q", c.i, c.offset, got, c.want)
		}
	}
}
