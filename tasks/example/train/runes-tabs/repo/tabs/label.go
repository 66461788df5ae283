// Package tabs shortens page titles for tab labels.
package tabs

// Label returns s unchanged when it has at most n characters. Otherwise it
// returns the first n-3 characters followed by "...", so the result
// is n characters long. n is greater than 3.
func Label(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}
