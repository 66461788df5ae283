// Package agenda renders meeting agendas as plain text.
package agenda

import "strings"

// Render returns title on the first line, then one numbered line per item.
func Render(title string, items []string) string {
	var b strings.Builder
	writeTitle(&b, title)
	for i, it := range items {
		writeItem(&b, i+1, it)
	}
	return b.String()
}
