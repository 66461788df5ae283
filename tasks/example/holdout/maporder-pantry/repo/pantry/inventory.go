// Package pantry formats pantry item counts for reports.
package pantry

import (
	"fmt"
	"strings"
)

// Inventory returns one line "name: count" per entry of counts, sorted by name.
func Inventory(counts map[string]int) string {
	var b strings.Builder
	for name, n := range counts {
		fmt.Fprintf(&b, "%s: %d\n", name, n)
	}
	return b.String()
}
