package grades

import "testing"

func TestMiddleGradeEven(t *testing.T) {
	if got := MiddleGrade([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Fatalf("MiddleGrade(4, 1, 3, 2) = %v, want 2.5", got)
	}
}

func TestMiddleGradeKeepsInput(t *testing.T) {
	xs := []float64{3, 1, 2}
	MiddleGrade(xs)
	if xs[0] != 3 || xs[1] != 1 {
		t.Fatal("the input was modified")
	}
}
