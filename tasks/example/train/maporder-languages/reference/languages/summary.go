// Package languages formats language counts for reports.
package languages

import (
	"fmt"
	"sort"
	"strings"
)

// Summary returns one line "name: count" per entry of counts, most frequent first, equal counts by name.
func Summary(counts map[string]int) string {
	names := make([]string, 0, len(counts))
	for name := range counts {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool {
		if counts[names[i]] != counts[names[j]] {
			return counts[names[i]] > counts[names[j]]
		}
		return names[i] < names[j]
	})
	var b strings.Builder
	for _, name := range names {
		fmt.Fprintf(&b, "%s: %d\n", name, counts[name])
	}
	return b.String()
}
