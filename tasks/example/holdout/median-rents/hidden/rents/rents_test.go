package rents

import "testing"

func TestMedianOdd(t *testing.T) {
	if got := Median([]float64{900.0, 1450.0, 1100.0}); got != 1100.0 {
		t.Fatalf("Median = %v, want 1100.0", got)
	}
	if got := Median(nil); got != 0 {
		t.Fatalf("Median(nil) = %v, want 0", got)
	}
}
