// Package shifts reads the timestamps of time clock terminals, written like "2024-03-15 17:30".
package shifts

import "time"

// layout is how time clock terminals write their timestamps.
const layout = "2006-01-02 15:04"

// ClockIn parses a timestamp of time clock terminals.
func ClockIn(s string) (time.Time, error) {
	return time.Parse(layout, s)
}
