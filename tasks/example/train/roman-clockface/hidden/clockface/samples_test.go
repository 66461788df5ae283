package clockface

import "testing"

func TestDialSamples(t *testing.T) {
	for n, want := range map[int]string{4: "IV", 9: "IX", 14: "XIV", 40: "XL", 90: "XC", 400: "CD", 944: "CMXLIV", 1994: "MCMXCIV", 3999: "MMMCMXCIX"} {
		if got := Dial(n); got != want {
			t.Errorf("Dial(%d) = %s, want %s", n, got, want)
		}
	}
}
