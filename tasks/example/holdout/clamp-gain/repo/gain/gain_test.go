package gain

import "testing"

func TestRestrict(t *testing.T) {
	cases := [][4]float64{{-3.5, -12.0, 6.0, -3.5}, {-13.0, -12.0, 6.0, -12.0}, {7.0, -12.0, 6.0, 6.0}}
	for _, c := range cases {
		if got := Restrict(c[0], c[1], c[2]); got != c[3] {
			t.Errorf("Restrict(%v, %v, %v) = %v, want %v", c[0], c[1], c[2], got, c[3])
		}
	}
}
