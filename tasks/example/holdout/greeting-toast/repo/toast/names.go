package toast

import "strings"

// properName normalises a name typed by a user: surrounding white space
// (spaces, tabs, newlines) is dropped and the first letter is made
// upper case.
func properName(name string) string {
	name = strings.TrimSpace(name)
	if name == "" {
		return name
	}
	return strings.ToUpper(name)
}
