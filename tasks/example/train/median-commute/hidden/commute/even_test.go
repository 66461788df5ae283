package commute

import (
	"slices"
	"testing"
)

func TestTypicalMinutesEven(t *testing.T) {
	if got := TypicalMinutes([]float64{30.0, 12.0, 18.0, 45.0, 22.0, 27.0}); got != 24.5 {
		t.Fatalf("TypicalMinutes(30.0, 12.0, 18.0, 45.0, 22.0, 27.0) = %v, want 24.5", got)
	}
}

func TestTypicalMinutesKeepsInput(t *testing.T) {
	xs := []float64{42.0, 17.0, 25.0, 31.0, 20.0}
	TypicalMinutes(xs)
	if !slices.Equal(xs, []float64{42.0, 17.0, 25.0, 31.0, 20.0}) {
		t.Fatal("the input was modified")
	}
}
