package standings

import (
	"fmt"
	"testing"
)

func TestRankEqualKeysKeepOrder(t *testing.T) {
	var items []Player
	for i := 0; i < 60; i++ {
		items = append(items, Player{Name: fmt.Sprintf("n%03d", i), Points: (i * 5) % 6})
	}
	Rank(items)
	for i := 1; i < len(items); i++ {
		a, b := items[i-1], items[i]
		if b.Points > a.Points {
			t.Fatalf("%v before %v: not sorted by Points", a, b)
		}
		if a.Points == b.Points && a.Name > b.Name {
			t.Fatalf("%v before %v: equal Points, but the order changed", a, b)
		}
	}
}
