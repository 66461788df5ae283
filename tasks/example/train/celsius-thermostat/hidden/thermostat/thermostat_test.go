package thermostat

import (
	"math"
	"testing"
)

func TestFahrenheit(t *testing.T) {
	for in, want := range map[float64]float64{0.0: 32.0, 100.0: 212.0, -40.0: -40.0} {
		if got := Fahrenheit(in); math.Abs(got-want) > 1e-9 {
			t.Errorf("Fahrenheit(%v) = %v, want %v", in, got, want)
		}
	}
}
