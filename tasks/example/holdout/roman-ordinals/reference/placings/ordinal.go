// Package placings writes race placings.
package placings

import "strconv"

// Ordinal returns n (n >= 1) followed by its English ordinal suffix: 1st,
// 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd, 111th, 1012th.
func Ordinal(n int) string {
	suffix := "th"
	if t := n % 100; t >= 11 && t <= 13 {
		return strconv.Itoa(n) + suffix
	}
	switch n % 10 {
	case 1:
		suffix = "st"
	case 2:
		suffix = "nd"
	case 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}
