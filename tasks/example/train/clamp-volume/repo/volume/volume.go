package volume

// Clamp limits x to the range [lo, hi].
func Clamp(x, lo, hi int) int {
	if x < lo {
		return hi
	}
	if x > hi {
		return lo
	}
	return x
}
