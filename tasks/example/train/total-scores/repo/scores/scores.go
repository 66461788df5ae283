// Package scores keeps match scores.
package scores

// Sum returns the sum of the match scores in xs.
func Sum(xs []int) int {
	total := 0
	for i := 1; i < len(xs); i++ {
		total += xs[i]
	}
	return total
}
