// Package rental counts days for car rentals.
package rental

import "time"

// RentalDays returns the number of calendar days from a to b, both in the same
// location and b not before a: from a Monday 23:00 to the Tuesday 01:00
// after it is one day.
func RentalDays(a, b time.Time) int {
	return int(b.Sub(a).Hours() / 24)
}
