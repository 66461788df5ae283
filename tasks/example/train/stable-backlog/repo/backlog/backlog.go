// Package backlog orders tasks of a backlog.
package backlog

import "sort"

// Task is one of the tasks of a backlog.
type Task struct {
	Name     string
	Priority int
}

// SortByPriority sorts items by Priority, lowest first. Items with equal Priority keep their order.
func SortByPriority(items []Task) {
	sort.Slice(items, func(i, j int) bool { return items[i].Priority < items[j].Priority })
}
