// Package watering schedules watering run.
package watering

import "time"

// Plan returns n occurrences of a watering run that repeats every day,
// starting with first: the same wall-clock time each time, in first's
// location.
func Plan(first time.Time, n int) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		out[i] = first.AddDate(0, 0, i*1)
	}
	return out
}
