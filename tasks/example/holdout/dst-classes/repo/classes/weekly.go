// Package classes schedules class.
package classes

import "time"

// Sessions returns n occurrences of a class that repeats every week,
// starting with first: the same wall-clock time each time, in first's
// location.
func Sessions(first time.Time, n int) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		out[i] = first.Add(time.Duration(i) * 7 * 24 * time.Hour)
	}
	return out
}
