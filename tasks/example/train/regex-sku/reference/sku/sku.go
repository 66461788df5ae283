// Package sku checks stock keeping units.
package sku

import "regexp"

var skuPattern = regexp.MustCompile(`^[A-Z]{3}-\d{4}$`)

// Valid reports whether s is a valid SKU as a whole: three capital letters, a dash and four digits, like ABC-1234.
func Valid(s string) bool {
	return skuPattern.MatchString(s)
}
