package pages

import "testing"

func TestLookup(t *testing.T) {
	xs := []int{1, 3, 5, 7, 9, 11}
	for i, x := range xs {
		if got := Lookup(xs, x); got != i {
			t.Errorf("Lookup(%d) = %d, want %d", x, got, i)
		}
	}
}
