// Package steps summarises daily step counts.
package steps

// AverageSteps returns the mean of xs rounded toward zero, or 0 when xs is empty.
func AverageSteps(xs []uint16) uint16 {
	if len(xs) == 0 {
		return 0
	}
	var sum uint16
	for _, x := range xs {
		sum += x
	}
	return sum / uint16(len(xs))
}
