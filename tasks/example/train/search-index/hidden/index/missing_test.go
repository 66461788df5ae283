package index

import "testing"

func TestFindMissing(t *testing.T) {
	xs := []int{2, 4, 6}
	for _, x := range []int{1, 3, 5, 7} {
		if got := Find(xs, x); got != -1 {
			t.Errorf("Find(%d) = %d, want -1", x, got)
		}
	}
	if Find(nil, 1) != -1 || Find([]int{8}, 8) != 0 {
		t.Error("edge cases")
	}
}
