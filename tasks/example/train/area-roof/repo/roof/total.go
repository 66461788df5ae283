package roof

// Coverage adds up the areas of all shapes.
func Coverage(shapes []Shape) float64 {
	sum := 0.0
	for i := 1; i < len(shapes); i++ {
		sum += shapes[i].Area()
	}
	return sum
}
