// Package payday schedules weekly payment.
package payday

import "time"

// Paydays returns n occurrences of a weekly payment that repeats every week,
// starting with first: the same wall-clock time each time, in first's
// location.
func Paydays(first time.Time, n int) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		out[i] = first.AddDate(0, 0, i*7)
	}
	return out
}
