package pantry

import "testing"

func TestInventoryOrder(t *testing.T) {
	counts := map[string]int{"rice": 1, "beans": 3, "flour": 5, "sugar": 2, "salt": 4, "pepper": 1, "oats": 3, "lentils": 5, "pasta": 2, "honey": 4, "tea": 1, "coffee": 3, "cocoa": 5, "yeast": 2, "vinegar": 4, "oil": 1, "raisins": 3, "almonds": 5, "walnuts": 2, "barley": 4, "quinoa": 1, "couscous": 3}
	want := "almonds: 5\nbarley: 4\nbeans: 3\ncocoa: 5\ncoffee: 3\ncouscous: 3\nflour: 5\nhoney: 4\nlentils: 5\noats: 3\noil: 1\npasta: 2\npepper: 1\nquinoa: 1\nraisins: 3\nrice: 1\nsalt: 4\nsugar: 2\ntea: 1\nvinegar: 4\nwalnuts: 2\nyeast: 2\n"
	for range 3 {
		if got := Inventory(counts); got != want {
			t.Fatalf("Inventory =\n%s\nwant\n%s", got, want)
		}
	}
}
