package throttle

// Limit limits x to the range [lo, hi].
func Limit(x, lo, hi float64) float64 {
	return min(lo, max(x, hi))
}
