package ratings

import "testing"

func TestPosition(t *testing.T) {
	xs := []float64{1012.5, 1200.0, 1350.25, 1500.0, 1733.5}
	for i, x := range xs {
		if got := Position(xs, x); got != i {
			t.Errorf("Position(%v) = %d, want %d", x, got, i)
		}
	}
}
