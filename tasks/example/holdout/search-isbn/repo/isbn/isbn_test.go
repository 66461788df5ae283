package isbn

import "testing"

func TestFind(t *testing.T) {
	xs := []string{"0131103628", "0201633612", "0262033844", "0321125215", "0596517742", "1491950358"}
	for i, x := range xs {
		if got := Find(xs, x); got != i {
			t.Errorf("Find(%v) = %d, want %d", x, got, i)
		}
	}
}
