// Package receipt renders shop receipts as plain text.
package receipt

import "strings"

// Receipt returns title on the first line, then one numbered line per item.
func Receipt(title string, items []string) string {
	var b strings.Builder
	writeTitle(&b, title)
	for i, it := range items {
		writeItem(&b, i+1, it)
	}
	return b.String()
}
