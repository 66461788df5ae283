// Package doses schedules medication reminder.
package doses

import "time"

// Schedule returns n occurrences of a medication reminder that repeats every day,
// starting with first: the same wall-clock time each time, in first's
// location.
func Schedule(first time.Time, n int) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		out[i] = first.Add(time.Duration(i) * 1 * 24 * time.Hour)
	}
	return out
}
