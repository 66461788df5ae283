// Package reviewwords counts words in app reviews.
package reviewwords

import "strings"

// Frequencies counts the words of text.
func Frequencies(text string) map[string]int {
	counts := map[string]int{}
	for _, w := range strings.Fields(text) {
		counts[w]++
	}
	return counts
}
