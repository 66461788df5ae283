// Package boarding reads the timestamps of departure boards, written like "2024-03-15 17:30".
package boarding

import "time"

// layout is how departure boards write their timestamps.
const layout = "2006-01-02 15:04"

// Departure parses a timestamp of departure boards.
func Departure(s string) (time.Time, error) {
	return time.Parse(layout, s)
}
