package tempo

// Bound limits x to the range [lo, hi].
func Bound(x, lo, hi int) int {
	return min(lo, max(x, hi))
}
