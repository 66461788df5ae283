package rents

import (
	"slices"
	"testing"
)

func TestMedianEven(t *testing.T) {
	if got := Median([]float64{1200.0, 800.0, 950.0, 1500.0}); got != 1075.0 {
		t.Fatalf("Median(1200.0, 800.0, 950.0, 1500.0) = %v, want 1075.0", got)
	}
}

func TestMedianKeepsInput(t *testing.T) {
	xs := []float64{900.0, 1450.0, 1100.0}
	Median(xs)
	if !slices.Equal(xs, []float64{900.0, 1450.0, 1100.0}) {
		t.Fatal("the input was modified")
	}
}
