package oven

import (
	"math"
	"testing"
)

func TestCelsius(t *testing.T) {
	for f, c := range map[float64]float64{32: 0, 212: 100, -40: -40, 98.6: 37} {
		if got := Celsius(f); math.Abs(got-c) > 1e-9 {
			t.Errorf("Celsius(%v) = %v, want %v", f, got, c)
		}
	}
}
