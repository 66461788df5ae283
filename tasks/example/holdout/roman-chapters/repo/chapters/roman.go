// Package chapters formats chapter as Roman numerals.
package chapters

import "strings"

var numerals = []struct {
	value  int
	symbol string
}{{1000, "M"}, {500, "D"}, {100, "C"}, {50, "L"}, {10, "X"}, {5, "V"}, {1, "I"}}

// Heading returns n (1 to 3999) in Roman numerals, using the subtractive
// forms (IV, IX, XL, XC, CD, CM).
func Heading(n int) string {
	var b strings.Builder
	for _, r := range numerals {
		for n >= r.value {
			b.WriteString(r.symbol)
			n -= r.value
		}
	}
	return b.String()
}
