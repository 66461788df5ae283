package weather

import (
	"math"
	"testing"
)

func TestToCelsius(t *testing.T) {
	for f, c := range map[float64]float64{32: 0, 212: 100, -40: -40, 98.6: 37} {
		if got := ToCelsius(f); math.Abs(got-c) > 1e-9 {
			t.Errorf("ToCelsius(%v) = %v, want %v", f, got, c)
		}
	}
}
