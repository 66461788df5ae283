package brightness

import "testing"

func TestFitEdges(t *testing.T) {
	cases := [][4]int{{5, 5, 100, 5}, {100, 5, 100, 100}, {-50, -20, -10, -20}, {3, 3, 3, 3}, {-995, 5, 100, 5}}
	for _, c := range cases {
		if got := Fit(c[0], c[1], c[2]); got != c[3] {
			t.Errorf("Fit(%v, %v, %v) = %v, want %v", c[0], c[1], c[2], got, c[3])
		}
	}
}
