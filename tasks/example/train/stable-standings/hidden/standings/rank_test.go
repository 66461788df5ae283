package standings

import "testing"

func TestRank(t *testing.T) {
	items := []Player{{"b", 2}, {"c", 1}, {"a", 3}}
	Rank(items)
	if items[0].Name != "a" || items[1].Name != "b" || items[2].Name != "c" {
		t.Fatalf("Rank = %v", items)
	}
}
