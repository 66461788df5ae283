// Package mailwords counts words in e-mail bodies.
package mailwords

import (
	"strings"
	"unicode"
)

// WordCounts counts the words of text, ignoring case and punctuation.
func WordCounts(text string) map[string]int {
	counts := map[string]int{}
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
	for _, w := range words {
		counts[w]++
	}
	return counts
}
