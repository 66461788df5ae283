package tempo

// Bound limits x to the range [lo, hi].
func Bound(x, lo, hi int) int {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}
