// Package mailwords counts words in e-mail bodies.
package mailwords

import "strings"

// WordCounts counts the words of text.
func WordCounts(text string) map[string]int {
	counts := map[string]int{}
	for _, w := range strings.Fields(text) {
		counts[w]++
	}
	return counts
}
