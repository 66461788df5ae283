package seats

import "testing"

func TestLocateMissing(t *testing.T) {
	xs := []int{2, 4, 6}
	for _, x := range []int{1, 3, 5, 7} {
		if got := Locate(xs, x); got != -1 {
			t.Errorf("Locate(%d) = %d, want -1", x, got)
		}
	}
	if Locate(nil, 1) != -1 || Locate([]int{8}, 8) != 0 {
		t.Error("edge cases")
	}
}
