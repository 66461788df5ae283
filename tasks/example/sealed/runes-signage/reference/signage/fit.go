// Package signage shortens shop names for the street signs.
package signage

// Fit returns s unchanged when it has at most n characters. Otherwise it
// returns the first n-2 characters followed by "..", so the result
// is n characters long. n is greater than 2.
func Fit(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-2]) + ".."
}
