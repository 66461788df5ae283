package volume

import (
	"math"
	"testing"
)

func TestLitresFraction(t *testing.T) {
	for in, want := range map[float64]float64{0.5: 1.8925, 10.0: 37.85} {
		if got := Litres(in); math.Abs(got-want) > 1e-9 {
			t.Errorf("Litres(%v) = %v, want %v", in, got, want)
		}
	}
}
