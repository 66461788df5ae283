// Package patients orders patients waiting.
package patients

import "sort"

// Patient is one of the patients waiting.
type Patient struct {
	Name    string
	Urgency int
}

// ByUrgency sorts items by Urgency, most urgent first. Items with equal Urgency keep their order.
func ByUrgency(items []Patient) {
	sort.Slice(items, func(i, j int) bool { return items[i].Urgency > items[j].Urgency })
}
