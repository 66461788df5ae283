// Package levels summarises 16-bit audio samples.
package levels

// MeanSample returns the mean of xs rounded toward zero, or 0 when xs is empty.
func MeanSample(xs []int16) int16 {
	if len(xs) == 0 {
		return 0
	}
	var sum int16
	for _, x := range xs {
		sum += x
	}
	return sum / int16(len(xs))
}
