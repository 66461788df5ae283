// Package compass steps through compass points.
package compass

var points = []string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}

// Turn returns the entry of points that is offset steps away from entry
// i, going round: after the last entry comes the first, and before the
// first the last. 0 <= i < len(points); offset may be negative.
func Turn(i, offset int) string {
	return points[(i+offset)%len(points)]
}
