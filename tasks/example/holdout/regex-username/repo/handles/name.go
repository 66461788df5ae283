// Package handles checks chat handles.
package handles

import "regexp"

var handleRE = regexp.MustCompile(`[a-z][a-z0-9_]{2,15}`)

// ValidHandle reports whether s is a valid handle as a whole: a lower-case letter, then 2 to 15 lower-case letters, digits or underscores.
func ValidHandle(s string) bool {
	return handleRE.MatchString(s)
}
