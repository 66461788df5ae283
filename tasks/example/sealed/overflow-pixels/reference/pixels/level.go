// Package pixels summarises 16-bit pixel levels.
package pixels

// MeanLevel returns the mean of xs rounded toward zero, or 0 when xs is empty.
func MeanLevel(xs []uint16) uint16 {
	if len(xs) == 0 {
		return 0
	}
	var sum uint32
	for _, x := range xs {
		sum += uint32(x)
	}
	return uint16(sum / uint32(len(xs)))
}
