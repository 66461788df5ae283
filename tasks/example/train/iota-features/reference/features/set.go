// Package features describes feature switches.
package features

import "strings"

// Set is a set of feature switches, combined with |.
type Set uint32

// The feature switches.
const (
	DarkMode Set = 1 << iota
	Beta
	Telemetry
	Export
)

var names = []struct {
	f    Set
	name string
}{{DarkMode, "dark-mode"}, {Beta, "beta"}, {Telemetry, "telemetry"}, {Export, "export"}}

// Has reports whether p holds every flag of q.
func (p Set) Has(q Set) bool { return p&q == q }

// String lists the flags of p by name, in the order above, joined by
// "+"; it is "none" for an empty set.
func (p Set) String() string {
	var parts []string
	for _, n := range names {
		if p.Has(n.f) {
			parts = append(parts, n.name)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "+")
}
