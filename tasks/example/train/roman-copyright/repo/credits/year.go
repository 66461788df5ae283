// Package credits formats copyright years as Roman numerals.
package credits

import "strings"

var numerals = []struct {
	value  int
	symbol string
}{{1000, "M"}, {500, "D"}, {100, "C"}, {50, "L"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"}}

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
