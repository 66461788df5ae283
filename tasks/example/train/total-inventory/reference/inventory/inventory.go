// Package inventory keeps item counts.
package inventory

// Total returns the sum of the item counts in xs.
func Total(xs []int) int {
	total := 0
	for i := 0; i < len(xs); i++ {
		total += xs[i]
	}
	return total
}
