package register

import "testing"

func TestCents(t *testing.T) {
	for in, want := range map[float64]int64{1: 100, 0.5: 50, 12: 1200} {
		if got := Cents(in); got != want {
			t.Errorf("Cents(%v) = %d, want %d", in, got, want)
		}
	}
}
