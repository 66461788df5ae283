package brightness

// Fit limits x to the range [lo, hi].
func Fit(x, lo, hi int) int {
	if x < lo {
		return hi
	}
	if x > hi {
		return lo
	}
	return x
}
