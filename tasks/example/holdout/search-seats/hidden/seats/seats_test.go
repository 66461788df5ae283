package seats

import "testing"

func TestLocate(t *testing.T) {
	xs := []int{1, 3, 5, 7, 9, 11}
	for i, x := range xs {
		if got := Locate(xs, x); got != i {
			t.Errorf("Locate(%d) = %d, want %d", x, got, i)
		}
	}
}
