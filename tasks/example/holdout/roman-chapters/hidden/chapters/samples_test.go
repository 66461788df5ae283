package chapters

import "testing"

func TestHeadingSamples(t *testing.T) {
	for n, want := range map[int]string{4: "IV", 9: "IX", 14: "XIV", 40: "XL", 90: "XC", 400: "CD", 944: "CMXLIV", 1994: "MCMXCIV", 3999: "MMMCMXCIX"} {
		if got := Heading(n); got != want {
			t.Errorf("Heading(%d) = %s, want %s", n, got, want)
		}
	}
}
