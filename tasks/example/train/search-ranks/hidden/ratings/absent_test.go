package ratings

import "testing"

func TestPositionAbsent(t *testing.T) {
	xs := []float64{1100.0, 1400.5, 1800.0}
	for _, x := range []float64{900.0, 1250.0, 1600.0, 2000.0} {
		if got := Position(xs, x); got != -1 {
			t.Errorf("Position(%v) = %d, want -1", x, got)
		}
	}
	if Position(nil, 900.0) != -1 || Position([]float64{900.0}, 900.0) != 0 {
		t.Error("empty and one-element slices")
	}
}
