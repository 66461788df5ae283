// Package tags checks release tags.
package tags

import "regexp"

var releaseRE = regexp.MustCompile(`^v\d+\.\d+\.\d+$`)

// IsRelease reports whether s is a valid release tag as a whole: a "v" and three numbers separated by dots, like v1.12.0.
func IsRelease(s string) bool {
	return releaseRE.MatchString(s)
}
