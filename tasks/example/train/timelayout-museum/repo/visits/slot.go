// Package visits reads the timestamps of US ticket scanners, written like "03/15/2024 5:30 PM".
package visits

import "time"

// layout is how US ticket scanners write their timestamps.
const layout = "02/01/2006 3:04 PM"

// Slot parses a timestamp of US ticket scanners.
func Slot(s string) (time.Time, error) {
	return time.Parse(layout, s)
}
