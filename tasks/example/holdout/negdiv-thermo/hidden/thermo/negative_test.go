package thermo

import "testing"

func TestBandNegative(t *testing.T) {
	for _, c := range [][2]int{
		{-1, -1},
		{-25, -1},
		{-26, -2},
		{-74, -3},
		{-50, -2},
	} {
		if got := Band(c[0], 25); got != c[1] {
			t.Errorf("Band(%d, 25) = %d, want %d", c[0], got, c[1])
		}
	}
}
