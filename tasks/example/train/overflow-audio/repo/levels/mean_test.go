package levels

import "testing"

func TestMeanSample(t *testing.T) {
	if got := MeanSample([]int16{10, 20, 30}); got != 20 {
		t.Fatalf("MeanSample(10, 20, 30) = %d, want 20", got)
	}
	if got := MeanSample(nil); got != 0 {
		t.Fatalf("MeanSample(nil) = %d, want 0", got)
	}
}
