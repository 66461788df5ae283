package rainfall

import "testing"

func TestTypicalRainOdd(t *testing.T) {
	if got := TypicalRain([]float64{5, 1, 3}); got != 3 {
		t.Fatalf("TypicalRain = %v, want 3", got)
	}
	if got := TypicalRain(nil); got != 0 {
		t.Fatalf("TypicalRain(nil) = %v, want 0", got)
	}
}
