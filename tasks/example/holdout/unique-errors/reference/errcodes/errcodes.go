// Package errcodes cleans lists of error codes.
package errcodes

// FirstSeen returns xs without repeated values, in order of first occurrence.
func FirstSeen(xs []int) []int {
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
