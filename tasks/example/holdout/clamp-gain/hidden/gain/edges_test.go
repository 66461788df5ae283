package gain

import "testing"

func TestRestrictEdges(t *testing.T) {
	cases := [][4]float64{{-12.0, -12.0, 6.0, -12.0}, {6.0, -12.0, 6.0, 6.0}, {-50, -20, -10, -20}, {3, 3, 3, 3}, {-1012.0, -12.0, 6.0, -12.0}}
	for _, c := range cases {
		if got := Restrict(c[0], c[1], c[2]); got != c[3] {
			t.Errorf("Restrict(%v, %v, %v) = %v, want %v", c[0], c[1], c[2], got, c[3])
		}
	}
}
