// Package lyrics counts words in song lyrics.
package lyrics

import "strings"

// Words counts the words of text.
func Words(text string) map[string]int {
	counts := map[string]int{}
	for _, w := range strings.Fields(text) {
		counts[w]++
	}
	return counts
}
