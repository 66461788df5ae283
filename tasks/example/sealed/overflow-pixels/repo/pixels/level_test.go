package pixels

import "testing"

func TestMeanLevel(t *testing.T) {
	if got := MeanLevel([]uint16{10, 20, 30}); got != 20 {
		t.Fatalf("MeanLevel(10, 20, 30) = %d, want 20", got)
	}
	if got := MeanLevel(nil); got != 0 {
		t.Fatalf("MeanLevel(nil) = %d, want 0", got)
	}
}
