// Package checkout handles prices in euros.
package checkout

// ToCents converts a price like 19.99 to a whole number of cents.
func ToCents(price float64) int64 {
	return int64(price * 100)
}
