package tips

import "testing"

func TestPercent(t *testing.T) {
	for _, c := range [][3]int{{1, 2, 50}, {0, 5, 0}, {3, 3, 100}, {1, 4, 25}} {
		if got := Percent(c[0], c[1]); got != c[2] {
			t.Errorf("Percent(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}
