// Package tags cleans lists of tags.
package tags

// Unique returns xs without repeated values, in order of first occurrence.
func Unique(xs []string) []string {
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
