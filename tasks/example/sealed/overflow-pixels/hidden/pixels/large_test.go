package pixels

import "testing"

func TestMeanLevelLarge(t *testing.T) {
	for _, c := range []struct {
		xs   []uint16
		want uint16
	}{
		{[]uint16{60000, 60000}, 60000},
		{[]uint16{60000, 59998}, 59999},
		{[]uint16{60000, 60000, 60000, 60000, 60000, 60000, 60000, 0}, 52500},
	} {
		if got := MeanLevel(c.xs); got != c.want {
			t.Errorf("MeanLevel(%v) = %d, want %d", c.xs, got, c.want)
		}
	}
}
