package thermostat

import (
	"math"
	"testing"
)

func TestFahrenheitFraction(t *testing.T) {
	for in, want := range map[float64]float64{37.0: 98.6, 1.0: 33.8} {
		if got := Fahrenheit(in); math.Abs(got-want) > 1e-9 {
			t.Errorf("Fahrenheit(%v) = %v, want %v", in, got, want)
		}
	}
}
