// Package discount computes discount rates.
package discount

// Rate returns part as a whole percentage of whole, rounded to the
// nearest integer, halves up. part and whole are not negative; whole > 0.
func Rate(part, whole int) int {
	return (part*200 + whole) / (2 * whole)
}
