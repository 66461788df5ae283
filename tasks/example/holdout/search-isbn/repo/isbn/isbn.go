// Package isbn looks up sorted ISBNs.
package isbn

// Find returns the index of x in the ascending slice xs, or -1.
func Find(xs []string, x string) int {
	lo, hi := 0, len(xs)-1
	for lo < hi {
		mid := (lo + hi) / 2
		switch {
		case xs[mid] == x:
			return mid
		case xs[mid] < x:
			lo = mid + 1
		default:
			hi = mid - 1
		}
	}
	return -1
}
