package rainfall

import "testing"

func TestTypicalRainEven(t *testing.T) {
	if got := TypicalRain([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Fatalf("TypicalRain(4, 1, 3, 2) = %v, want 2.5", got)
	}
}

func TestTypicalRainKeepsInput(t *testing.T) {
	xs := []float64{3, 1, 2}
	TypicalRain(xs)
	if xs[0] != 3 || xs[1] != 1 {
		t.Fatal("the input was modified")
	}
}
