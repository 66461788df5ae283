package inches

import (
	"math"
	"testing"
)

func TestInchesFraction(t *testing.T) {
	for in, want := range map[float64]float64{127.0: 50.0, 1.0: 0.39370078740157477} {
		if got := Inches(in); math.Abs(got-want) > 1e-9 {
			t.Errorf("Inches(%v) = %v, want %v", in, got, want)
		}
	}
}
