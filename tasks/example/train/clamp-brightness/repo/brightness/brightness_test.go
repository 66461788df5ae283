package brightness

import "testing"

func TestFit(t *testing.T) {
	cases := [][4]int{{40, 5, 100, 40}, {4, 5, 100, 5}, {101, 5, 100, 100}}
	for _, c := range cases {
		if got := Fit(c[0], c[1], c[2]); got != c[3] {
			t.Errorf("Fit(%v, %v, %v) = %v, want %v", c[0], c[1], c[2], got, c[3])
		}
	}
}
