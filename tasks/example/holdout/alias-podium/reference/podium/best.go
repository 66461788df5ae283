// Package podium ranks jump distances in centimetres.
package podium

import "sort"

// Best returns the n highest values of xs, highest first (all of them when
// there are fewer than n). xs is not changed.
func Best(xs []int, n int) []int {
	xs = append([]int(nil), xs...)
	sort.Sort(sort.Reverse(sort.IntSlice(xs)))
	if n > len(xs) {
		n = len(xs)
	}
	return xs[:n]
}
