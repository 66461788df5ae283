// Package basketitems cleans lists of basket items.
package basketitems

// Compact returns xs without repeated values.
func Compact(xs []string) []string {
	seen := map[string]bool{}
	for _, x := range xs {
		seen[x] = true
	}
	out := []string{}
	for x := range seen {
		out = append(out, x)
	}
	return out
}
