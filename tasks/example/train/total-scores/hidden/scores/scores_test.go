package scores

import "testing"

func TestSumEmpty(t *testing.T) {
	if got := Sum(nil); got != 0 {
		t.Fatalf("Sum(nil) = %d, want 0", got)
	}
}

func TestSumThree(t *testing.T) {
	if got := Sum([]int{4, 5, 6}); got != 15 {
		t.Fatalf("Sum(4, 5, 6) = %d, want 15", got)
	}
}
