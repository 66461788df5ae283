package traffic

import "testing"

func TestMeanBytes(t *testing.T) {
	if got := MeanBytes([]uint32{10, 20, 30}); got != 20 {
		t.Fatalf("MeanBytes(10, 20, 30) = %d, want 20", got)
	}
	if got := MeanBytes(nil); got != 0 {
		t.Fatalf("MeanBytes(nil) = %d, want 0", got)
	}
}
