// Package tips computes tip shares.
package tips

// Percent returns part as a whole percentage of whole, rounded to the
// nearest integer, halves up. part and whole are not negative; whole > 0.
func Percent(part, whole int) int {
	return part * 100 / whole
}
