// Package paper formats paper sizes.
package paper

import "fmt"

// Size is a sheet size in millimetres.
type Size struct {
	W, H int
}

// String formats x like "210x297 mm".
func (x *Size) String() string {
	return fmt.Sprintf("%dx%d mm", x.W, x.H)
}

// Spec returns a line of the print order: label, a colon, a space and the
// size, like "flyer: 210x297 mm".
func Spec(label string, x Size) string {
	return fmt.Sprintf("%s: %v", label, x)
}
