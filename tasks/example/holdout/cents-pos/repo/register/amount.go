// Package register handles prices in dollars.
package register

// Cents converts a price like 9.95 to a whole number of cents.
func Cents(price float64) int64 {
	return int64(price * 100)
}
