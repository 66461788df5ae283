// Package ports cleans lists of open ports.
package ports

// Unique returns xs without repeated values, in order of first occurrence.
func Unique(xs []int) []int {
	seen := map[int]bool{}
	out := []int{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
