package tiles

import "math"

// Shape is anything with an area.
type Shape interface{ Area() float64 }

// Circle is a round medallion of radius R.
type Circle struct{ R float64 }

// Area of the circle.
func (c Circle) Area() float64 { return math.Pi * c.R * c.R }

// Square is a square tile of side S.
type Square struct{ S float64 }

// Area of the square.
func (s Square) Area() float64 { return 4 * s.S }
