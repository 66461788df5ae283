// Package webhooks reads the timestamps of payment webhooks, written like "2024-06-01T12:00:00+02:00".
package webhooks

import "time"

// layout is how payment webhooks write their timestamps.
const layout = "2006-01-02T15:04:05Z"

// Received parses a timestamp of payment webhooks.
func Received(s string) (time.Time, error) {
	return time.Parse(layout, s)
}
