// Package census formats district counts for reports.
package census

import (
	"fmt"
	"sort"
	"strings"
)

// Report returns one line "name: count" per entry of counts, sorted by name.
func Report(counts map[string]int) string {
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
