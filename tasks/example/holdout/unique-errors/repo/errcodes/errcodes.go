// Package errcodes cleans lists of error codes.
package errcodes

// FirstSeen returns xs without repeated values.
func FirstSeen(xs []int) []int {
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
