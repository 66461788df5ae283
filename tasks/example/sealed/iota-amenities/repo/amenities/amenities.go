// Package amenities describes room amenities.
package amenities

import "strings"

// Amenities is a set of room amenities, combined with |.
type Amenities uint16

// The room amenities.
const (
	Wifi Amenities = iota
	Projector
	Whiteboard
	Phone
)

var names = []struct {
	f    Amenities
	name string
}{{Wifi, "wifi"}, {Projector, "projector"}, {Whiteboard, "whiteboard"}, {Phone, "phone"}}

// Has reports whether p holds every flag of q.
func (p Amenities) Has(q Amenities) bool { return p&q == q }

// String lists the flags of p by name, in the order above, joined by
// "+"; it is "none" for an empty set.
func (p Amenities) String() string {
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
