// Package basketitems cleans lists of basket items.
package basketitems

// Compact returns xs without repeated values, in order of first occurrence.
func Compact(xs []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
