package gain

// Restrict limits x to the range [lo, hi].
func Restrict(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}
