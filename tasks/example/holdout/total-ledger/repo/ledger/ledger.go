// Package ledger keeps ledger entries.
package ledger

// Balance returns the sum of the ledger entries in xs.
func Balance(xs []int) int {
	total := 0
	for i := 1; i < len(xs); i++ {
		total += xs[i]
	}
	return total
}
