// Package captionwords counts words in subtitle files.
package captionwords

import "strings"

// Count counts the words of text.
func Count(text string) map[string]int {
	counts := map[string]int{}
	for _, w := range strings.Fields(text) {
		counts[w]++
	}
	return counts
}
