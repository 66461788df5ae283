// Package tachograph reads the timestamps of German tachograph exports, written like "24.12.2023 18:00".
package tachograph

import "time"

// layout is how German tachograph exports write their timestamps.
const layout = "02.01.2006 15:04"

// Logged parses a timestamp of German tachograph exports.
func Logged(s string) (time.Time, error) {
	return time.Parse(layout, s)
}
