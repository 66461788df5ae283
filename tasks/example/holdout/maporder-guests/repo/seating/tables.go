// Package seating formats table counts for reports.
package seating

import (
	"fmt"
	"strings"
)

// Tables returns one line "name: count" per entry of counts, sorted by name.
func Tables(counts map[string]int) string {
	var b strings.Builder
	for name, n := range counts {
		fmt.Fprintf(&b, "%s: %d\n", name, n)
	}
	return b.String()
}
