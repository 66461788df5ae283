// Package tabs shortens page titles for tab labels.
package tabs

// Label returns s unchanged when it has at most n characters. Otherwise it
// returns the first n-3 characters followed by "...", so the result
// is n characters long. n is greater than 3.
func Label(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-3]) + "..."
}
