package inches

import (
	"math"
	"testing"
)

func TestInches(t *testing.T) {
	for in, want := range map[float64]float64{0.0: 0.0, 2.54: 1.0, 25.4: 10.0} {
		if got := Inches(in); math.Abs(got-want) > 1e-9 {
			t.Errorf("Inches(%v) = %v, want %v", in, got, want)
		}
	}
}
