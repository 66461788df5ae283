package placings

import "testing"

func TestOrdinalKnown(t *testing.T) {
	for n, w := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 111: "111th", 112: "112th", 1012: "1012th", 10001: "10001st"} {
		if got := Ordinal(n); got != w {
			t.Errorf("Ordinal(%d) = %s, want %s", n, got, w)
		}
	}
}
