// Package departures shows train departures on a 24-hour clock.
package departures

import "fmt"

// ClockTime returns the wall-clock time "HH:MM" that is m minutes after
// midnight. m may be negative or more than a day: the clock wraps round.
func ClockTime(m int) string {
	m %= 24 * 60
	return fmt.Sprintf("%02d:%02d", m/60, m%60)
}
