// Package standup schedules meeting.
package standup

import "time"

// Occurrences returns n occurrences of a meeting that repeats every day,
// starting with first: the same wall-clock time each time, in first's
// location.
func Occurrences(first time.Time, n int) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		out[i] = first.AddDate(0, 0, i*1)
	}
	return out
}
