package tiles

// Total adds up the areas of all shapes.
func Total(shapes []Shape) float64 {
	sum := 0.0
	for i := 0; i < len(shapes)-1; i++ {
		sum += shapes[i].Area()
	}
	return sum
}
