package checkout

import "testing"

func TestToCentsAwkward(t *testing.T) {
	for in, want := range map[float64]int64{0.29: 29, 19.99: 1999, 1.15: 115, 4.35: 435, -0.29: -29, 1234.56: 123456} {
		if got := ToCents(in); got != want {
			t.Errorf("ToCents(%v) = %d, want %d", in, got, want)
		}
	}
}
