// Package speeches counts words in political speeches.
package speeches

import "strings"

// Tally counts the words of text.
func Tally(text string) map[string]int {
	counts := map[string]int{}
	for _, w := range strings.Fields(text) {
		counts[w]++
	}
	return counts
}
