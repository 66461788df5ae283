package traffic

import "testing"

func TestMeanBytesLarge(t *testing.T) {
	for _, c := range []struct {
		xs   []uint32
		want uint32
	}{
		{[]uint32{4000000000, 4000000000}, 4000000000},
		{[]uint32{4000000000, 3999999998}, 3999999999},
		{[]uint32{4000000000, 4000000000, 4000000000, 4000000000, 4000000000, 4000000000, 4000000000, 0}, 3500000000},
	} {
		if got := MeanBytes(c.xs); got != c.want {
			t.Errorf("MeanBytes(%v) = %d, want %d", c.xs, got, c.want)
		}
	}
}
