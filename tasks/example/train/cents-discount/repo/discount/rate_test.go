package discount

import "testing"

func TestRate(t *testing.T) {
	for _, c := range [][3]int{{1, 5, 20}, {0, 9, 0}, {9, 9, 100}, {3, 4, 75}} {
		if got := Rate(c[0], c[1]); got != c[2] {
			t.Errorf("Rate(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}
