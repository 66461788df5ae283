package postcodes

import "testing"

func TestIndexOfAbsent(t *testing.T) {
	xs := []string{"20095", "50667", "80331"}
	for _, x := range []string{"00000", "30000", "60000", "99999"} {
		if got := IndexOf(xs, x); got != -1 {
			t.Errorf("IndexOf(%v) = %d, want -1", x, got)
		}
	}
	if IndexOf(nil, "00000") != -1 || IndexOf([]string{"00000"}, "00000") != 0 {
		t.Error("empty and one-element slices")
	}
}
