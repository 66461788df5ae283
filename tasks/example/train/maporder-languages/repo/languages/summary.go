// Package languages formats language counts for reports.
package languages

import (
	"fmt"
	"strings"
)

// Summary returns one line "name: count" per entry of counts, most frequent first, equal counts by name.
func Summary(counts map[string]int) string {
	var b strings.Builder
	for name, n := range counts {
		fmt.Fprintf(&b, "%s: %d\n", name, n)
	}
	return b.String()
}
