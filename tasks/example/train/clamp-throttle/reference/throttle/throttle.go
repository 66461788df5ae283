package throttle

// Limit limits x to the range [lo, hi].
func Limit(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}
