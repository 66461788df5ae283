package prices

import "testing"

func TestMidPriceEven(t *testing.T) {
	if got := MidPrice([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Fatalf("MidPrice(4, 1, 3, 2) = %v, want 2.5", got)
	}
}

func TestMidPriceKeepsInput(t *testing.T) {
	xs := []float64{3, 1, 2}
	MidPrice(xs)
	if xs[0] != 3 || xs[1] != 1 {
		t.Fatal("the input was modified")
	}
}
