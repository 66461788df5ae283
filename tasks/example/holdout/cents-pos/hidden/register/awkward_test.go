package register

import "testing"

func TestCentsAwkward(t *testing.T) {
	for in, want := range map[float64]int64{0.07: 7, 0.57: 57, 2.01: 201, 9.95: 995, -1.13: -113, 4.35: 435} {
		if got := Cents(in); got != want {
			t.Errorf("Cents(%v) = %d, want %d", in, got, want)
		}
	}
}
