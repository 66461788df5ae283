// Package deliveries orders parcels on a route.
package deliveries

import "sort"

// Parcel is one of the parcels on a route.
type Parcel struct {
	Name string
	Zone int
}

// ByZone sorts items by Zone, highest zone first. Items with equal Zone keep their order.
func ByZone(items []Parcel) {
	sort.Slice(items, func(i, j int) bool { return items[i].Zone > items[j].Zone })
}
