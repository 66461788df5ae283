// Package ticketid checks issue keys.
package ticketid

import "regexp"

var keyRE = regexp.MustCompile(`[A-Z]+-[0-9]+`)

// IsKey reports whether s is a valid issue key as a whole: a project of capital letters, a dash and a number, like CORE-42.
func IsKey(s string) bool {
	return keyRE.MatchString(s)
}
