// Package setlist orders tracks of a DJ set.
package setlist

import "sort"

// Track is one of the tracks of a DJ set.
type Track struct {
	Name string
	BPM  int
}

// ByTempo sorts items by BPM, slowest first. Items with equal BPM keep their order.
func ByTempo(items []Track) {
	sort.Slice(items, func(i, j int) bool { return items[i].BPM < items[j].BPM })
}
