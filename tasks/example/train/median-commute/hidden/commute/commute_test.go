package commute

import "testing"

func TestTypicalMinutesOdd(t *testing.T) {
	if got := TypicalMinutes([]float64{42.0, 17.0, 25.0, 31.0, 20.0}); got != 25.0 {
		t.Fatalf("TypicalMinutes = %v, want 25.0", got)
	}
	if got := TypicalMinutes(nil); got != 0 {
		t.Fatalf("TypicalMinutes(nil) = %v, want 0", got)
	}
}
