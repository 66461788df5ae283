package orderlist

import (
	"slices"
	"testing"
)

func TestPageEdges(t *testing.T) {
	items := []string{"#1001", "#1002", "#1003", "#1004", "#1005", "#1006", "#1007"}
	if got := Page(items, 3, 3); !slices.Equal(got, items[6:]) {
		t.Errorf("last page = %v, want %v", got, items[6:])
	}
	if got := Page(items, 1, 10); !slices.Equal(got, items) {
		t.Errorf("one big page = %v", got)
	}
	for _, p := range []int{0, -1, 4, 9} {
		if got := Page(items, p, 3); len(got) != 0 {
			t.Errorf("Page(%d) = %v, want nothing", p, got)
		}
	}
}

func TestPageTotalPartial(t *testing.T) {
	for _, c := range [][3]int{{7, 3, 3}, {0, 3, 0}, {1, 10, 1}, {10, 10, 1}, {11, 10, 2}} {
		if got := PageTotal(c[0], c[1]); got != c[2] {
			t.Errorf("PageTotal(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}
