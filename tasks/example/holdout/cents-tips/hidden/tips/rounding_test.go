package tips

import "testing"

func TestPercentRounds(t *testing.T) {
	for _, c := range [][3]int{{2, 3, 67}, {1, 3, 33}, {1, 8, 13}, {199, 200, 100}, {1, 200, 1}, {1, 201, 0}} {
		if got := Percent(c[0], c[1]); got != c[2] {
			t.Errorf("Percent(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}
