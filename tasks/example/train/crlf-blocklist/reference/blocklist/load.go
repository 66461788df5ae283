// Package blocklist holds lists of blocked senders.
package blocklist

import "strings"

// List is a set of blocked senders.
type List map[string]bool

// Load reads one sender address per line. Blank lines and lines starting with #
// are skipped; leading spaces and tabs are ignored.
func Load(text string) List {
	l := List{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		l[line] = true
	}
	return l
}

// Blocked reports whether name is in the list.
func (l List) Blocked(name string) bool { return l[name] }
