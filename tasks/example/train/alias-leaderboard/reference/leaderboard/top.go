// Package leaderboard ranks arcade scores.
package leaderboard

import "sort"

// Top returns the n highest values of xs, highest first (all of them when
// there are fewer than n). xs is not changed.
func Top(xs []int, n int) []int {
	xs = append([]int(nil), xs...)
	sort.Sort(sort.Reverse(sort.IntSlice(xs)))
	if n > len(xs) {
		n = len(xs)
	}
	return xs[:n]
}
