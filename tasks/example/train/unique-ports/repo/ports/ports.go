// Package ports cleans lists of open ports.
package ports

// Unique returns xs without repeated values.
func Unique(xs []int) []int {
	seen := map[int]bool{}
	for _, x := range xs {
		seen[x] = true
	}
	out := []int{}
	for x := range seen {
		out = append(out, x)
	}
	return out
}
