package credits

import "testing"

func TestYearKnown(t *testing.T) {
	for n, w := range map[int]string{1999: "MCMXCIX", 2024: "MMXXIV", 1944: "MCMXLIV", 490: "CDXC", 9: "IX"} {
		if got := Year(n); got != w {
			t.Errorf("Year(%d) = %s, want %s", n, got, w)
		}
	}
}
