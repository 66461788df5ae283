package deliveries

import (
	"fmt"
	"testing"
)

func TestByZoneEqualKeysKeepOrder(t *testing.T) {
	var items []Parcel
	for i := 0; i < 45; i++ {
		items = append(items, Parcel{Name: fmt.Sprintf("n%03d", i), Zone: (i * 11) % 3})
	}
	ByZone(items)
	for i := 1; i < len(items); i++ {
		a, b := items[i-1], items[i]
		if b.Zone > a.Zone {
			t.Fatalf("%v before %v: not sorted by Zone", a, b)
		}
		if a.Zone == b.Zone && a.Name > b.Name {
			t.Fatalf("%v before %v: equal Zone, but the order changed", a, b)
		}
	}
}
