// Package pagecount keeps page counts of print jobs.
package pagecount

// Pages returns the sum of the page counts of print jobs in xs.
func Pages(xs []int64) int64 {
	var total int64
	for i := 0; i < len(xs); i++ {
		total += xs[i]
	}
	return total
}
