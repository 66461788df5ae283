// Package diet describes diet labels of a dish.
package diet

import "strings"

// Labels is a set of diet labels of a dish, combined with |.
type Labels uint8

// The diet labels of a dish.
const (
	Vegan Labels = iota
	GlutenFree
	NutFree
	Halal
)

var names = []struct {
	f    Labels
	name string
}{{Vegan, "vegan"}, {GlutenFree, "gluten-free"}, {NutFree, "nut-free"}, {Halal, "halal"}}

// Has reports whether p holds every flag of q.
func (p Labels) Has(q Labels) bool { return p&q == q }

// String lists the flags of p by name, in the order above, joined by
// "+"; it is "none" for an empty set.
func (p Labels) String() string {
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
