// Package minutes renders meeting minutes as plain text.
package minutes

import "strings"

// Minutes returns title on the first line, then one numbered line per item.
func Minutes(title string, items []string) string {
	var b strings.Builder
	writeTitle(b, title)
	for i, it := range items {
		writeItem(b, i+1, it)
	}
	return b.String()
}
