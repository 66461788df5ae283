// Package wordfreq counts words in articles.
package wordfreq

import "strings"

// Count counts the words of text.
func Count(text string) map[string]int {
	counts := map[string]int{}
	for _, w := range strings.Fields(text) {
		counts[w]++
	}
	return counts
}
