// Package tags cleans lists of tags.
package tags

// Unique returns xs without repeated values.
func Unique(xs []string) []string {
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
