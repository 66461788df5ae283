// Package sensor summarises raw sensor samples.
package sensor

// Average returns the mean of xs rounded toward zero, or 0 when xs is empty.
func Average(xs []int16) int16 {
	if len(xs) == 0 {
		return 0
	}
	var sum int64
	for _, x := range xs {
		sum += int64(x)
	}
	return int16(sum / int64(len(xs)))
}
