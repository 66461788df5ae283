package meter

import "testing"

func TestMean(t *testing.T) {
	if got := Mean([]int32{10, 20, 30}); got != 20 {
		t.Fatalf("Mean(10, 20, 30) = %d, want 20", got)
	}
	if got := Mean(nil); got != 0 {
		t.Fatalf("Mean(nil) = %d, want 0", got)
	}
}
