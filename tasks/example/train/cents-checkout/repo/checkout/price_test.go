package checkout

import "testing"

func TestToCents(t *testing.T) {
	for in, want := range map[float64]int64{10: 1000, 2.5: 250, 0: 0} {
		if got := ToCents(in); got != want {
			t.Errorf("ToCents(%v) = %d, want %d", in, got, want)
		}
	}
}
