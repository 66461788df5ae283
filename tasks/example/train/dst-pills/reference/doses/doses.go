// Package doses schedules medication reminder.
package doses

import "time"

// Schedule returns n occurrences of a medication reminder that repeats every day,
// starting with first: the same wall-clock time each time, in first's
// location.
func Schedule(first time.Time, n int) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		out[i] = first.AddDate(0, 0, i*1)
	}
	return out
}
