// Package rent shares the rent between people.
package rent

// Shares divides total cents into n parts (n > 0) that add up to total and
// differ by at most one cent, the larger parts first.
func Shares(total int64, n int) []int64 {
	parts := make([]int64, n)
	for i := range parts {
		parts[i] = total / int64(n)
		if int64(i) < total%int64(n) {
			parts[i]++
		}
	}
	return parts
}
