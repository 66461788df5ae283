// Package rain keeps rainfall readings in millimetres.
package rain

// Total returns the sum of the rainfall readings in millimetres in xs.
func Total(xs []float64) float64 {
	var total float64
	for i := 0; i < len(xs); i++ {
		total += xs[i]
	}
	return total
}
