// Package allow holds lists of allowed hosts.
package allow

import "strings"

// List is a set of allowed hosts.
type List map[string]bool

// Load reads one host name per line. Blank lines and lines starting with #
// are skipped; leading spaces and tabs are ignored. The list may be written on any system.
func Load(text string) List {
	l := List{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimLeft(line, " \t")
		if line == "" || line[0] == '#' {
			continue
		}
		l[line] = true
	}
	return l
}

// Allowed reports whether name is in the list.
func (l List) Allowed(name string) bool { return l[name] }
