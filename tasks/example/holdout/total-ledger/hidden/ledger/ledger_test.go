package ledger

import "testing"

func TestBalanceEmpty(t *testing.T) {
	if got := Balance(nil); got != 0 {
		t.Fatalf("Balance(nil) = %d, want 0", got)
	}
}

func TestBalanceThree(t *testing.T) {
	if got := Balance([]int{4, 5, 6}); got != 15 {
		t.Fatalf("Balance(4, 5, 6) = %d, want 15", got)
	}
}
