package inventory

import "testing"

func TestTotalEmpty(t *testing.T) {
	if got := Total(nil); got != 0 {
		t.Fatalf("Total(nil) = %d, want 0", got)
	}
}

func TestTotalThree(t *testing.T) {
	if got := Total([]int{4, 5, 6}); got != 15 {
		t.Fatalf("Total(4, 5, 6) = %d, want 15", got)
	}
}
