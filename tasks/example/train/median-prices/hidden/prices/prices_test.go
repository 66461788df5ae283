package prices

import "testing"

func TestMidPriceOdd(t *testing.T) {
	if got := MidPrice([]float64{5, 1, 3}); got != 3 {
		t.Fatalf("MidPrice = %v, want 3", got)
	}
	if got := MidPrice(nil); got != 0 {
		t.Fatalf("MidPrice(nil) = %v, want 0", got)
	}
}
