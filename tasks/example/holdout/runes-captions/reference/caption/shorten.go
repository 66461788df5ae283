// Package caption shortens video captions for thumbnails.
package caption

// Shorten returns s unchanged when it has at most n characters. Otherwise it
// returns the first n-1 characters followed by "~", so the result
// is n characters long. n is greater than 1.
func Shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "~"
}
