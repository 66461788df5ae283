// Package rgb formats paint colours.
package rgb

import "fmt"

// Color is a colour in 8-bit red, green and blue.
type Color struct {
	R, G, B uint8
}

// String formats x like "#ff8000".
func (x *Color) String() string {
	return fmt.Sprintf("#%02x%02x%02x", x.R, x.G, x.B)
}

// Swatch returns a line of the swatch card: label, a colon, a space and the
// colour, like "sunset: #ff8000".
func Swatch(label string, x Color) string {
	return fmt.Sprintf("%s: %v", label, x)
}
