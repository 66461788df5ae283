// Package isodate checks dates in uploads.
package isodate

import "regexp"

var dateRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// LooksLikeDate reports whether s is a valid date as a whole: four digits, a dash, two digits, a dash and two digits, like 2024-01-31.
func LooksLikeDate(s string) bool {
	return dateRE.MatchString(s)
}
