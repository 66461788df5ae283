// Package cities cleans lists of visited cities.
package cities

// Distinct returns xs without repeated values, in order of first occurrence.
func Distinct(xs []string) []string {
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
