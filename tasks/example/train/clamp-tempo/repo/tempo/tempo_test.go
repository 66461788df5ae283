package tempo

import "testing"

func TestBound(t *testing.T) {
	cases := [][4]int{{120, 40, 208, 120}, {39, 40, 208, 40}, {209, 40, 208, 208}}
	for _, c := range cases {
		if got := Bound(c[0], c[1], c[2]); got != c[3] {
			t.Errorf("Bound(%v, %v, %v) = %v, want %v", c[0], c[1], c[2], got, c[3])
		}
	}
}
