// Package cities cleans lists of visited cities.
package cities

// Distinct returns xs without repeated values.
func Distinct(xs []string) []string {
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
