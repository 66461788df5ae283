// Package standings orders players in a table.
package standings

import "sort"

// Player is one of the players in a table.
type Player struct {
	Name   string
	Points int
}

// Rank sorts items by Points, highest first. Items with equal Points keep their order.
func Rank(items []Player) {
	sort.Slice(items, func(i, j int) bool { return items[i].Points > items[j].Points })
}
