// Package pixels summarises 16-bit pixel levels.
package pixels

// MeanLevel returns the mean of xs rounded toward zero, or 0 when xs is empty.
func MeanLevel(xs []uint16) uint16 {
	if len(xs) == 0 {
		return 0
	}
	var sum uint16
	for _, x := range xs {
		sum += x
	}
	return sum / uint16(len(xs))
}
