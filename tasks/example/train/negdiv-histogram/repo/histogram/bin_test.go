package histogram

import "testing"

func TestBin(t *testing.T) {
	for _, c := range [][2]int{
		{0, 0},
		{1, 0},
		{9, 0},
		{10, 1},
		{32, 3},
	} {
		if got := Bin(c[0], 10); got != c[1] {
			t.Errorf("Bin(%d, 10) = %d, want %d", c[0], got, c[1])
		}
	}
}
