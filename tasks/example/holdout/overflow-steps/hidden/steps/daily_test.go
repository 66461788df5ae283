package steps

import "testing"

func TestAverageSteps(t *testing.T) {
	if got := AverageSteps([]uint16{10, 20, 30}); got != 20 {
		t.Fatalf("AverageSteps(10, 20, 30) = %d, want 20", got)
	}
	if got := AverageSteps(nil); got != 0 {
		t.Fatalf("AverageSteps(nil) = %d, want 0", got)
	}
}
