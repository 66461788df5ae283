// Package watering schedules watering run.
package watering

import "time"

// Plan returns n occurrences of a watering run that repeats every day,
// starting with first: the same wall-clock time each time, in first's
// location.
func Plan(first time.Time, n int) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		out[i] = first.Add(time.Duration(i) * 1 * 24 * time.Hour)
	}
	return out
}
