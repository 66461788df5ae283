package seating

import "testing"

func TestTablesOrder(t *testing.T) {
	counts := map[string]int{"Aspen": 1, "Birch": 3, "Cedar": 5, "Dogwood": 2, "Elm": 4, "Fir": 1, "Ginkgo": 3, "Hazel": 5, "Ivy": 2, "Juniper": 4, "Kauri": 1, "Larch": 3, "Maple": 5, "Nutmeg": 2, "Oak": 4, "Pine": 1, "Quince": 3, "Rowan": 5, "Spruce": 2, "Teak": 4, "Umbrella": 1, "Willow": 3}
	want := "Aspen: 1\nBirch: 3\nCedar: 5\nDogwood: 2\nElm: 4\nFir: 1\nGinkgo: 3\nHazel: 5\nIvy: 2\nJuniper: 4\nKauri: 1\nLarch: 3\nMaple: 5\nNutmeg: 2\nOak: 4\nPine: 1\nQuince: 3\nRowan: 5\nSpruce: 2\nTeak: 4\nUmbrella: 1\nWillow: 3\n"
	for range 3 {
		if got := Tables(counts); got != want {
			t.Fatalf("Tables =\n%s\nwant\n%s", got, want)
		}
	}
}
