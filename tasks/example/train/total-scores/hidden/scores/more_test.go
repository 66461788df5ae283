package scores

import "testing"

func TestSumOne(t *testing.T) {
	if got := Sum([]int{7}); got != 7 {
		t.Fatalf("Sum(7) = %d, want 7", got)
	}
}

func TestSumNegative(t *testing.T) {
	if got := Sum([]int{-3, 10, -2}); got != 5 {
		t.Fatalf("Sum(-3, 10, -2) = %d, want 5", got)
	}
}
