package tempo

import "testing"

func TestBoundEdges(t *testing.T) {
	cases := [][4]int{{40, 40, 208, 40}, {208, 40, 208, 208}, {-50, -20, -10, -20}, {3, 3, 3, 3}, {-960, 40, 208, 40}}
	for _, c := range cases {
		if got := Bound(c[0], c[1], c[2]); got != c[3] {
			t.Errorf("Bound(%v, %v, %v) = %v, want %v", c[0], c[1], c[2], got, c[3])
		}
	}
}
