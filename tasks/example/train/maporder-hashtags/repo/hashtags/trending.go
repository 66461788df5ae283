// Package hashtags formats hashtag counts for reports.
package hashtags

import (
	"fmt"
	"strings"
)

// Trending returns one line "name: count" per entry of counts, most frequent first, equal counts by name.
func Trending(counts map[string]int) string {
	var b strings.Builder
	for name, n := range counts {
		fmt.Fprintf(&b, "%s: %d\n", name, n)
	}
	return b.String()
}
