// Package guests cleans lists of guest names.
package guests

// Dedupe returns xs without repeated values.
func Dedupe(xs []string) []string {
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
