// Package contour groups elevations in metres into bins of equal width.
package contour

// Band returns the index of the bin that holds x: bin k holds the values
// from k*width up to, but not including, (k+1)*width. width > 0; x may
// be negative.
func Band(x, width int) int {
	k := x / width
	if x%width != 0 && x < 0 {
		k--
	}
	return k
}
