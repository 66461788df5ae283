// Package countdown shows launch countdown times on a 24-hour clock.
package countdown

import "fmt"

// WallClock returns the wall-clock time "HH:MM" that is m minutes after
// midnight. m may be negative or more than a day: the clock wraps round.
func WallClock(m int) string {
	m %= 24 * 60
	if m < 0 {
		m += 24 * 60
	}
	return fmt.Sprintf("%02d:%02d", m/60, m%60)
}
