// Package knots converts boat speeds.
package knots

// Knots converts kilometres per hour to knots (1.852 km/h a knot).
func Knots(kmh float64) float64 {
	return kmh * 1000 / 1852
}
