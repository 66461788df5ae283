// Package meter summarises electricity meter readings.
package meter

// Mean returns the mean of xs rounded toward zero, or 0 when xs is empty.
func Mean(xs []int32) int32 {
	if len(xs) == 0 {
		return 0
	}
	var sum int32
	for _, x := range xs {
		sum += x
	}
	return sum / int32(len(xs))
}
