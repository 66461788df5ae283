package credits

import "testing"

// want is computed independently of Year, digit by digit.
func want(n int) string {
	ones := []string{"", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"}
	tens := []string{"", "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"}
	hundreds := []string{"", "C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"}
	thousands := []string{"", "M", "MM", "MMM"}
	return thousands[n/1000] + hundreds[n/100%10] + tens[n/10%10] + ones[n%10]
}

func TestYearEvery(t *testing.T) {
	for n := 1; n < 4000; n++ {
		if got := Year(n); got != want(n) {
			t.Errorf("Year(%d) = %s, want %s", n, got, want(n))
		}
	}
}
