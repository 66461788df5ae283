// Package errorlog formats error code counts for reports.
package errorlog

import (
	"fmt"
	"strings"
)

// Digest returns one line "name: count" per entry of counts, most frequent first, equal counts by name.
func Digest(counts map[string]int) string {
	var b strings.Builder
	for name, n := range counts {
		fmt.Fprintf(&b, "%s: %d\n", name, n)
	}
	return b.String()
}
