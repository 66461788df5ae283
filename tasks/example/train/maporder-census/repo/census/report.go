// Package census formats district counts for reports.
package census

import (
	"fmt"
	"strings"
)

// Report returns one line "name: count" per entry of counts, sorted by name.
func Report(counts map[string]int) string {
	var b strings.Builder
	for name, n := range counts {
		fmt.Fprintf(&b, "%s: %d\n", name, n)
	}
	return b.String()
}
