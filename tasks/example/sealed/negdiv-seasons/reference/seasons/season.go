// Package seasons steps through the seasons.
package seasons

var seasons = []string{"spring", "summer", "autumn", "winter"}

// Season returns the entry of seasons that is offset steps away from entry
// i, going round: after the last entry comes the first, and before the
// first the last. 0 <= i < len(seasons); offset may be negative.
func Season(i, offset int) string {
	n := len(seasons)
	return seasons[((i+offset)%n+n)%n]
}
