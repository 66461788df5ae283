package thermo

import "testing"

func TestBand(t *testing.T) {
	for _, c := range [][2]int{
		{0, 0},
		{1, 0},
		{24, 0},
		{25, 1},
		{77, 3},
	} {
		if got := Band(c[0], 25); got != c[1] {
			t.Errorf("Band(%d, 25) = %d, want %d", c[0], got, c[1])
		}
	}
}
