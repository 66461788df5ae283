package roof

import "math"

// Shape is anything with an area.
type Shape interface{ Area() float64 }

// Circle is a round skylight of radius R.
type Circle struct{ R float64 }

// Area of the circle.
func (c Circle) Area() float64 { return math.Pi * c.R * c.R }

// Triangle is a gable triangle with base B and height H.
type Triangle struct{ B, H float64 }

// Area of the triangle.
func (s Triangle) Area() float64 { return s.B * s.H }
