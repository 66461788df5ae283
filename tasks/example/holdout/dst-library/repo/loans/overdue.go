// Package loans counts days for library loans.
package loans

import "time"

// DaysLate returns the number of calendar days from a to b, both in the same
// location and b not before a: from a Monday 23:00 to the Tuesday 01:00
// after it is one day.
func DaysLate(a, b time.Time) int {
	return int(b.Sub(a).Hours() / 24)
}
