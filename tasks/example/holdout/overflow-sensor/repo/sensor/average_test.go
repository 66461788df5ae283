package sensor

import "testing"

func TestAverage(t *testing.T) {
	if got := Average([]int16{10, 20, 30}); got != 20 {
		t.Fatalf("Average(10, 20, 30) = %d, want 20", got)
	}
	if got := Average(nil); got != 0 {
		t.Fatalf("Average(nil) = %d, want 0", got)
	}
}
