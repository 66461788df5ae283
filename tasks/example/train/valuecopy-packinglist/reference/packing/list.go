// Package packing renders packing lists as plain text.
package packing

import "strings"

// PackingList returns title on the first line, then one numbered line per item.
func PackingList(title string, items []string) string {
	var b strings.Builder
	writeTitle(&b, title)
	for i, it := range items {
		writeItem(&b, i+1, it)
	}
	return b.String()
}
