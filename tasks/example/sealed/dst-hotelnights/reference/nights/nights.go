// Package nights counts days for hotel stays.
package nights

import "time"

// Nights returns the number of calendar days from a to b, both in the same
// location and b not before a: from a Monday 23:00 to the Tuesday 01:00
// after it is one day.
func Nights(a, b time.Time) int {
	y1, m1, d1 := a.Date()
	y2, m2, d2 := b.Date()
	da := time.Date(y1, m1, d1, 0, 0, 0, 0, time.UTC)
	db := time.Date(y2, m2, d2, 0, 0, 0, 0, time.UTC)
	return int(db.Sub(da).Hours() / 24)
}
