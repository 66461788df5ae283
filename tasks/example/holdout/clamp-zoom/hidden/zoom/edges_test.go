package zoom

import "testing"

func TestLimitEdges(t *testing.T) {
	cases := [][4]int{{0, 0, 10, 0}, {10, 0, 10, 10}, {-50, -20, -10, -20}, {3, 3, 3, 3}}
	for _, c := range cases {
		if got := Limit(c[0], c[1], c[2]); got != c[3] {
			t.Errorf("Limit(%d, %d, %d) = %d, want %d", c[0], c[1], c[2], got, c[3])
		}
	}
}
