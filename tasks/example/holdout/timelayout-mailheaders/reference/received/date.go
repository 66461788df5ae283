// Package received reads the timestamps of mail relays, written like "05 May 2024 10:00 +0200".
package received

import "time"

// layout is how mail relays write their timestamps.
const layout = "02 Jan 2006 15:04 -0700"

// Date parses a timestamp of mail relays.
func Date(s string) (time.Time, error) {
	return time.Parse(layout, s)
}
