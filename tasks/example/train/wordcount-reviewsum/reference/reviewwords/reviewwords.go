// Package reviewwords counts words in app reviews.
package reviewwords

import (
	"strings"
	"unicode"
)

// Frequencies counts the words of text, ignoring case and punctuation.
func Frequencies(text string) map[string]int {
	counts := map[string]int{}
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
	for _, w := range words {
		counts[w]++
	}
	return counts
}
