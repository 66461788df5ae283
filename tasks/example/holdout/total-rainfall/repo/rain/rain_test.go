package rain

import "testing"

func TestTotalEmpty(t *testing.T) {
	if got := Total(nil); got != 0 {
		t.Fatalf("Total(nil) = %v, want 0", got)
	}
}

func TestTotalThree(t *testing.T) {
	if got := Total([]float64{1.5, 0.25, 4.0}); got != 5.75 {
		t.Fatalf("Total(1.5, 0.25, 4.0) = %v, want 5.75", got)
	}
}
