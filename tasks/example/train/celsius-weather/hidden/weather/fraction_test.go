package weather

import (
	"math"
	"testing"
)

func TestToCelsiusFraction(t *testing.T) {
	if got := ToCelsius(33); math.Abs(got-5.0/9) > 1e-9 {
		t.Fatalf("ToCelsius(33) = %v", got)
	}
}
