package welcome

import "strings"

// tidy normalises a name typed by a user: surrounding white space
// (spaces, tabs, newlines) is dropped and the first letter is made
// upper case.
func tidy(name string) string {
	name = strings.Trim(name, " ")
	if name == "" {
		return name
	}
	return strings.ToUpper(name[:1]) + name[1:]
}
