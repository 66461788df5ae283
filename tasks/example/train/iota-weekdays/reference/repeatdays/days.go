// Package repeatdays describes days an alarm repeats on.
package repeatdays

import "strings"

// Days is a set of days an alarm repeats on, combined with |.
type Days uint8

// The days an alarm repeats on.
const (
	Mon Days = 1 << iota
	Tue
	Wed
	Thu
	Fri
	Sat
	Sun
)

var names = []struct {
	f    Days
	name string
}{{Mon, "mon"}, {Tue, "tue"}, {Wed, "wed"}, {Thu, "thu"}, {Fri, "fri"}, {Sat, "sat"}, {Sun, "sun"}}

// Has reports whether p holds every flag of q.
func (p Days) Has(q Days) bool { return p&q == q }

// String lists the flags of p by name, in the order above, joined by
// "+"; it is "none" for an empty set.
func (p Days) String() string {
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
