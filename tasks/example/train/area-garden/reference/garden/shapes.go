package garden

import "math"

// Shape is anything with an area.
type Shape interface{ Area() float64 }

// Rect is a garden rectangle.
type Rect struct{ W, H float64 }

// Area of the rectangle.
func (r Rect) Area() float64 { return r.W * r.H }

// Circle is a round garden of radius R.
type Circle struct{ R float64 }

// Area of the circle.
func (c Circle) Area() float64 { return math.Pi * c.R * c.R }
