package ledger

import "testing"

func TestBalanceOne(t *testing.T) {
	if got := Balance([]int{7}); got != 7 {
		t.Fatalf("Balance(7) = %d, want 7", got)
	}
}

func TestBalanceNegative(t *testing.T) {
	if got := Balance([]int{-3, 10, -2}); got != 5 {
		t.Fatalf("Balance(-3, 10, -2) = %d, want 5", got)
	}
}
