package contour

import "testing"

func TestBand(t *testing.T) {
	for _, c := range [][2]int{
		{0, 0},
		{1, 0},
		{99, 0},
		{100, 1},
		{302, 3},
	} {
		if got := Band(c[0], 100); got != c[1] {
			t.Errorf("Band(%d, 100) = %d, want %d", c[0], got, c[1])
		}
	}
}
