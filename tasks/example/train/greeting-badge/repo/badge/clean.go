package badge

import "strings"

// Clean normalises a name typed by a user: surrounding white space is
// dropped and the first letter is made upper case.
func Clean(name string) string {
	name = strings.TrimLeft(name, " ")
	if name == "" {
		return name
	}
	return strings.ToUpper(name[:1]) + name[1:]
}
