package setlist

import (
	"fmt"
	"testing"
)

func TestByTempoEqualKeysKeepOrder(t *testing.T) {
	var items []Track
	for i := 0; i < 56; i++ {
		items = append(items, Track{Name: fmt.Sprintf("n%03d", i), BPM: (i * 13) % 7})
	}
	ByTempo(items)
	for i := 1; i < len(items); i++ {
		a, b := items[i-1], items[i]
		if b.BPM < a.BPM {
			t.Fatalf("%v before %v: not sorted by BPM", a, b)
		}
		if a.BPM == b.BPM && a.Name > b.Name {
			t.Fatalf("%v before %v: equal BPM, but the order changed", a, b)
		}
	}
}
