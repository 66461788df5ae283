package census

import "testing"

func TestReportOrder(t *testing.T) {
	counts := map[string]int{"Northgate": 1, "Eastfield": 3, "Riverside": 5, "Oldtown": 2, "Hillcrest": 4, "Ashford": 1, "Bayview": 3, "Cedarwood": 5, "Dunmore": 2, "Elmstead": 4, "Fairholm": 1, "Glenrock": 3, "Harbourside": 5, "Ivybridge": 2, "Juniper": 4, "Kingsmead": 1, "Lakeside": 3, "Millbrook": 5, "Newhaven": 2, "Orchard": 4, "Pinehurst": 1, "Queensway": 3, "Rosedale": 5, "Southend": 2}
	want := "Ashford: 1\nBayview: 3\nCedarwood: 5\nDunmore: 2\nEastfield: 3\nElmstead: 4\nFairholm: 1\nGlenrock: 3\nHarbourside: 5\nHillcrest: 4\nIvybridge: 2\nJuniper: 4\nKingsmead: 1\nLakeside: 3\nMillbrook: 5\nNewhaven: 2\nNorthgate: 1\nOldtown: 2\nOrchard: 4\nPinehurst: 1\nQueensway: 3\nRiverside: 5\nRosedale: 5\nSouthend: 2\n"
	for range 3 {
		if got := Report(counts); got != want {
			t.Fatalf("Report =\n%s\nwant\n%s", got, want)
		}
	}
}
