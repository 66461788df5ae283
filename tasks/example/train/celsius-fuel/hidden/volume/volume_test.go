package volume

import (
	"math"
	"testing"
)

func TestLitres(t *testing.T) {
	for in, want := range map[float64]float64{0.0: 0.0, 1.0: 3.785, 2.0: 7.57} {
		if got := Litres(in); math.Abs(got-want) > 1e-9 {
			t.Errorf("Litres(%v) = %v, want %v", in, got, want)
		}
	}
}
