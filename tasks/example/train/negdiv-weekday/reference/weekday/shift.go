// Package weekday steps through the days of the week.
package weekday

var days = []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}

// Shift returns the entry of days that is offset steps away from entry
// i, going round: after the last entry comes the first, and before the
// first the last. 0 <= i < len(days); offset may be negative.
func Shift(i, offset int) string {
	n := len(days)
	return days[((i+offset)%n+n)%n]
}
