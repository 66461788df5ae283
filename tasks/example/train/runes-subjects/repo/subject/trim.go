// Package subject shortens e-mail subjects for the message list.
package subject

// Trim returns s unchanged when it has at most n characters. Otherwise it
// returns the first n-1 characters followed by "…", so the result
// is n characters long. n is greater than 1.
func Trim(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}
