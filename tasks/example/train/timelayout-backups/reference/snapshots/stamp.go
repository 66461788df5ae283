// Package snapshots reads the timestamps of backup snapshot names, written like "2024/04/01 21:15:00".
package snapshots

import "time"

// layout is how backup snapshot names write their timestamps.
const layout = "2006/01/02 15:04:05"

// Taken parses a timestamp of backup snapshot names.
func Taken(s string) (time.Time, error) {
	return time.Parse(layout, s)
}
