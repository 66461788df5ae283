package latency

import "testing"

func TestMedianEven(t *testing.T) {
	if got := Median([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Fatalf("Median(4, 1, 3, 2) = %v, want 2.5", got)
	}
}

func TestMedianKeepsInput(t *testing.T) {
	xs := []float64{3, 1, 2}
	Median(xs)
	if xs[0] != 3 || xs[1] != 1 {
		t.Fatal("the input was modified")
	}
}
