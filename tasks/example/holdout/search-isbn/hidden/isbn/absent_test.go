package isbn

import "testing"

func TestFindAbsent(t *testing.T) {
	xs := []string{"0262033844", "1491950358"}
	for _, x := range []string{"0000000000", "0300000000", "9999999999"} {
		if got := Find(xs, x); got != -1 {
			t.Errorf("Find(%v) = %d, want -1", x, got)
		}
	}
	if Find(nil, "0000000000") != -1 || Find([]string{"0000000000"}, "0000000000") != 0 {
		t.Error("empty and one-element slices")
	}
}
