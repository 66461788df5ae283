package index

import "testing"

func TestFind(t *testing.T) {
	xs := []int{1, 3, 5, 7, 9, 11}
	for i, x := range xs {
		if got := Find(xs, x); got != i {
			t.Errorf("Find(%d) = %d, want %d", x, got, i)
		}
	}
}
