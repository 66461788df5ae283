// Package uploadname checks names of uploaded files.
package uploadname

import "regexp"

var nameRE = regexp.MustCompile(`^[\w-]+\.csv$`)

// IsCSVName reports whether s is a valid file name as a whole: letters, digits, dashes or underscores, then ".csv".
func IsCSVName(s string) bool {
	return nameRE.MatchString(s)
}
