// Package meter summarises electricity meter readings.
package meter

// Mean returns the mean of xs rounded toward zero, or 0 when xs is empty.
func Mean(xs []int32) int32 {
	if len(xs) == 0 {
		return 0
	}
	var sum int64
	for _, x := range xs {
		sum += int64(x)
	}
	return int32(sum / int64(len(xs)))
}
