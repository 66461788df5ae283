package oven

import (
	"math"
	"testing"
)

func TestCelsiusFraction(t *testing.T) {
	if got := Celsius(33); math.Abs(got-5.0/9) > 1e-9 {
		t.Fatalf("Celsius(33) = %v", got)
	}
}
