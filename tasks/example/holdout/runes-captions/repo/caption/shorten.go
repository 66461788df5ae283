// Package caption shortens video captions for thumbnails.
package caption

// Shorten returns s unchanged when it has at most n characters. Otherwise it
// returns the first n-1 characters followed by "~", so the result
// is n characters long. n is greater than 1.
func Shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "~"
}
