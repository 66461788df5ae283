package nights

import (
	"testing"
	"time"
)

func TestNights(t *testing.T) {
	a := time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC)
	for _, n := range []int{0, 1, 3} {
		if got := Nights(a, a.AddDate(0, 0, n)); got != n {
			t.Errorf("Nights over %d days = %d", n, got)
		}
	}
}
