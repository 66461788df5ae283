// Package geom formats points on a plot.
package geom

import "fmt"

// Point is a point on the integer grid.
type Point struct {
	X, Y int
}

// String formats x like "(3, -2)".
func (x Point) String() string {
	return fmt.Sprintf("(%d, %d)", x.X, x.Y)
}

// Label returns a line of the legend: label, a colon, a space and the
// point, like "peak: (3, -2)".
func Label(label string, x Point) string {
	return fmt.Sprintf("%s: %v", label, x)
}
