// Package seating formats table counts for reports.
package seating

import (
	"fmt"
	"sort"
	"strings"
)

// Tables returns one line "name: count" per entry of counts, sorted by name.
func Tables(counts map[string]int) string {
	names := make([]string, 0, len(counts))
	for name := range counts {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		fmt.Fprintf(&b, "%s: %d\n", name, counts[name])
	}
	return b.String()
}
