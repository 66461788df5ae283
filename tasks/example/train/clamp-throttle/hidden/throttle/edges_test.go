package throttle

import "testing"

func TestLimitEdges(t *testing.T) {
	cases := [][4]float64{{0.0, 0.0, 1.0, 0.0}, {1.0, 0.0, 1.0, 1.0}, {-50, -20, -10, -20}, {3, 3, 3, 3}, {-1000.0, 0.0, 1.0, 0.0}}
	for _, c := range cases {
		if got := Limit(c[0], c[1], c[2]); got != c[3] {
			t.Errorf("Limit(%v, %v, %v) = %v, want %v", c[0], c[1], c[2], got, c[3])
		}
	}
}
