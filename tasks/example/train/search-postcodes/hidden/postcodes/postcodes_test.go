package postcodes

import "testing"

func TestIndexOf(t *testing.T) {
	xs := []string{"10115", "20095", "30159", "40213", "50667", "60311", "70173"}
	for i, x := range xs {
		if got := IndexOf(xs, x); got != i {
			t.Errorf("IndexOf(%v) = %d, want %d", x, got, i)
		}
	}
}
