package packing

import (
	"strings"
	"testing"
)

func TestPackingListNoItems(t *testing.T) {
	if got := PackingList("Box 7", nil); got != "Box 7\n" {
		t.Fatalf("PackingList with no items = %q", got)
	}
}

func TestPackingListManyItems(t *testing.T) {
	items := make([]string, 120)
	for i := range items {
		items[i] = "cables"
	}
	got := PackingList("Box 7", items)
	if lines := strings.Count(got, "\n"); lines != 121 || !strings.Contains(got, "120") {
		t.Fatalf("PackingList with 120 items gave %d lines", lines)
	}
}
