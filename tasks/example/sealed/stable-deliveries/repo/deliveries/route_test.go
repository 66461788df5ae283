package deliveries

import "testing"

func TestByZone(t *testing.T) {
	items := []Parcel{{"b", 2}, {"c", 1}, {"a", 3}}
	ByZone(items)
	if items[0].Name != "a" || items[1].Name != "b" || items[2].Name != "c" {
		t.Fatalf("ByZone = %v", items)
	}
}
