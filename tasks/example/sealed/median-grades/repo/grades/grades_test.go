package grades

import "testing"

func TestMiddleGradeOdd(t *testing.T) {
	if got := MiddleGrade([]float64{5, 1, 3}); got != 3 {
		t.Fatalf("MiddleGrade = %v, want 3", got)
	}
	if got := MiddleGrade(nil); got != 0 {
		t.Fatalf("MiddleGrade(nil) = %v, want 0", got)
	}
}
