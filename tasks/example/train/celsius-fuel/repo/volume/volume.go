// Package volume converts fuel volumes.
package volume

// Litres converts US gallons to litres (3.785 litres a gallon).
func Litres(gallons float64) float64 {
	return gallons * (3785 / 1000)
}
