// Package toppings describes pizza toppings.
package toppings

import "strings"

// Toppings is a set of pizza toppings, combined with |.
type Toppings uint16

// The pizza toppings.
const (
	Cheese Toppings = iota
	Ham
	Mushrooms
	Olives
	Basil
)

var names = []struct {
	f    Toppings
	name string
}{{Cheese, "cheese"}, {Ham, "ham"}, {Mushrooms, "mushrooms"}, {Olives, "olives"}, {Basil, "basil"}}

// Has reports whether p holds every flag of q.
func (p Toppings) Has(q Toppings) bool { return p&q == q }

// String lists the flags of p by name, in the order above, joined by
// "+"; it is "none" for an empty set.
func (p Toppings) String() string {
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
