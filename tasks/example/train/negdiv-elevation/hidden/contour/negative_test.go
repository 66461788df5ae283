package contour

import "testing"

func TestBandNegative(t *testing.T) {
	for _, c := range [][2]int{
		{-1, -1},
		{-100, -1},
		{-101, -2},
		{-299, -3},
		{-200, -2},
	} {
		if got := Band(c[0], 100); got != c[1] {
			t.Errorf("Band(%d, 100) = %d, want %d", c[0], got, c[1])
		}
	}
}
