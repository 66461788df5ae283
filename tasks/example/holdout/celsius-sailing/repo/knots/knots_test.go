package knots

import (
	"math"
	"testing"
)

func TestKnots(t *testing.T) {
	for in, want := range map[float64]float64{0.0: 0.0, 1.852: 1.0, 18.52: 10.0} {
		if got := Knots(in); math.Abs(got-want) > 1e-9 {
			t.Errorf("Knots(%v) = %v, want %v", in, got, want)
		}
	}
}
