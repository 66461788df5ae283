// Package register handles prices in dollars.
package register

import "math"

// Cents converts a price like 9.95 to a whole number of cents.
func Cents(price float64) int64 {
	return int64(math.Round(price * 100))
}
