package rental

import (
	"testing"
	"time"
)

func TestRentalDays(t *testing.T) {
	a := time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC)
	for _, n := range []int{0, 1, 6} {
		if got := RentalDays(a, a.AddDate(0, 0, n)); got != n {
			t.Errorf("RentalDays over %d days = %d", n, got)
		}
	}
}
