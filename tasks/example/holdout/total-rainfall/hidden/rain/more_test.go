package rain

import "testing"

func TestTotalOne(t *testing.T) {
	if got := Total([]float64{2.75}); got != 2.75 {
		t.Fatalf("Total(2.75) = %v, want 2.75", got)
	}
}

func TestTotalMixed(t *testing.T) {
	if got := Total([]float64{0.5, 12.0, 3.25, 0.125}); got != 15.875 {
		t.Fatalf("Total(0.5, 12.0, 3.25, 0.125) = %v, want 15.875", got)
	}
}
