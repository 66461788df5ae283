package levels

import "testing"

func TestMeanSampleLarge(t *testing.T) {
	for _, c := range []struct {
		xs   []int16
		want int16
	}{
		{[]int16{32000, 32000}, 32000},
		{[]int16{32000, 31998}, 31999},
		{[]int16{32000, 32000, 32000, 32000, 32000, 32000, 32000, 0}, 28000},
		{[]int16{-32000, -32000, -32000}, -32000},
		{[]int16{-32000, -31996}, -31998},
	} {
		if got := MeanSample(c.xs); got != c.want {
			t.Errorf("MeanSample(%v) = %d, want %d", c.xs, got, c.want)
		}
	}
}
