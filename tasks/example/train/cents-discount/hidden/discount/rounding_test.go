package discount

import "testing"

func TestRateRounds(t *testing.T) {
	for _, c := range [][3]int{{1, 6, 17}, {5, 6, 83}, {1, 40, 3}, {39, 40, 98}, {1, 1000, 0}, {1, 199, 1}} {
		if got := Rate(c[0], c[1]); got != c[2] {
			t.Errorf("Rate(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}
