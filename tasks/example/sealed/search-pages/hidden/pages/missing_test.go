package pages

import "testing"

func TestLookupMissing(t *testing.T) {
	xs := []int{2, 4, 6}
	for _, x := range []int{1, 3, 5, 7} {
		if got := Lookup(xs, x); got != -1 {
			t.Errorf("Lookup(%d) = %d, want -1", x, got)
		}
	}
	if Lookup(nil, 1) != -1 || Lookup([]int{8}, 8) != 0 {
		t.Error("edge cases")
	}
}
