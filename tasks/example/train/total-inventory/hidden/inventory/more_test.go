package inventory

import "testing"

func TestTotalOne(t *testing.T) {
	if got := Total([]int{7}); got != 7 {
		t.Fatalf("Total(7) = %d, want 7", got)
	}
}

func TestTotalNegative(t *testing.T) {
	if got := Total([]int{-3, 10, -2}); got != 5 {
		t.Fatalf("Total(-3, 10, -2) = %d, want 5", got)
	}
}
