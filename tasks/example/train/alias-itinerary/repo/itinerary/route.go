// Package itinerary builds travel routes step by step.
package itinerary

// Route is a travel route: stops in order.
type Route []string

// Then returns a new Route: p followed by s. p is not changed, and the
// result shares nothing with p, so p can be extended again in another way.
func (p Route) Then(s string) Route {
	return append(p, s)
}
