// Package pantry formats pantry item counts for reports.
package pantry

import (
	"fmt"
	"sort"
	"strings"
)

// Inventory returns one line "name: count" per entry of counts, sorted by name.
func Inventory(counts map[string]int) string {
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
