// Package traffic summarises transfer sizes in bytes.
package traffic

// MeanBytes returns the mean of xs rounded toward zero, or 0 when xs is empty.
func MeanBytes(xs []uint32) uint32 {
	if len(xs) == 0 {
		return 0
	}
	var sum uint32
	for _, x := range xs {
		sum += x
	}
	return sum / uint32(len(xs))
}
