package knots

import (
	"math"
	"testing"
)

func TestKnotsFraction(t *testing.T) {
	for in, want := range map[float64]float64{100.0: 53.99568034557235, 9.26: 5.0} {
		if got := Knots(in); math.Abs(got-want) > 1e-9 {
			t.Errorf("Knots(%v) = %v, want %v", in, got, want)
		}
	}
}
