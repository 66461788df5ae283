// Package palette checks colours in themes.
package palette

import "regexp"

var hexRE = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// IsHexColor reports whether s is a valid colour as a whole: "#" and six hexadecimal digits, like #1a2B3c.
func IsHexColor(s string) bool {
	return hexRE.MatchString(s)
}
