package brightness

// Fit limits x to the range [lo, hi].
func Fit(x, lo, hi int) int {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}
