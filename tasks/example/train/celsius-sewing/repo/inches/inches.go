// Package inches converts pattern sizes.
package inches

// Inches converts centimetres to inches (2.54 cm an inch).
func Inches(cm float64) float64 {
	return cm * (100 / 254)
}
