package sensor

import "testing"

func TestAverageLarge(t *testing.T) {
	for _, c := range []struct {
		xs   []int16
		want int16
	}{
		{[]int16{30000, 30000}, 30000},
		{[]int16{30000, 29998}, 29999},
		{[]int16{30000, 30000, 30000, 30000, 30000, 30000, 30000, 0}, 26250},
		{[]int16{-30000, -30000, -30000}, -30000},
		{[]int16{-30000, -29996}, -29998},
	} {
		if got := Average(c.xs); got != c.want {
			t.Errorf("Average(%v) = %d, want %d", c.xs, got, c.want)
		}
	}
}
