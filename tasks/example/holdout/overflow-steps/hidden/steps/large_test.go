package steps

import "testing"

func TestAverageStepsLarge(t *testing.T) {
	for _, c := range []struct {
		xs   []uint16
		want uint16
	}{
		{[]uint16{65000, 65000}, 65000},
		{[]uint16{65000, 64998}, 64999},
		{[]uint16{65000, 65000, 65000, 65000, 65000, 65000, 65000, 0}, 56875},
	} {
		if got := AverageSteps(c.xs); got != c.want {
			t.Errorf("AverageSteps(%v) = %d, want %d", c.xs, got, c.want)
		}
	}
}
