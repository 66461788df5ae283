package zoom

// Limit limits x to the range [lo, hi].
func Limit(x, lo, hi int) int {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}
