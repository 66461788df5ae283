package setlist

import "testing"

func TestByTempo(t *testing.T) {
	items := []Track{{"b", 2}, {"c", 3}, {"a", 1}}
	ByTempo(items)
	if items[0].Name != "a" || items[1].Name != "b" || items[2].Name != "c" {
		t.Fatalf("ByTempo = %v", items)
	}
}
