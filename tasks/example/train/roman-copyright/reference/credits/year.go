// Package credits formats copyright years as Roman numerals.
package credits

import "strings"

var numerals = []struct {
	value  int
	symbol string
}{{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"}, {50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"}}

// Year returns n (1 to 3999) in Roman numerals, using the subtractive
// forms (IV, IX, XL, XC, CD, CM).
func Year(n int) string {
	var b strings.Builder
	for _, r := range numerals {
		for n >= r.value {
			b.WriteString(r.symbol)
			n -= r.value
		}
	}
	return b.String()
}
