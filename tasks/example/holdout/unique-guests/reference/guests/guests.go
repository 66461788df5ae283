// Package guests cleans lists of guest names.
package guests

// Dedupe returns xs without repeated values, in order of first occurrence.
func Dedupe(xs []string) []string {
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
