package histogram

import "testing"

func TestBinNegative(t *testing.T) {
	for _, c := range [][2]int{
		{-1, -1},
		{-10, -1},
		{-11, -2},
		{-29, -3},
		{-20, -2},
	} {
		if got := Bin(c[0], 10); got != c[1] {
			t.Errorf("Bin(%d, 10) = %d, want %d", c[0], got, c[1])
		}
	}
}
