package loans

import (
	"testing"
	"time"
)

func TestDaysLate(t *testing.T) {
	a := time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC)
	for _, n := range []int{0, 1, 14} {
		if got := DaysLate(a, a.AddDate(0, 0, n)); got != n {
			t.Errorf("DaysLate over %d days = %d", n, got)
		}
	}
}
