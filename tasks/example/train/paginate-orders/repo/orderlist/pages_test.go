package orderlist

import (
	"slices"
	"testing"
)

func TestPage(t *testing.T) {
	items := []string{"#1001", "#1002", "#1003", "#1004", "#1005", "#1006", "#1007"}[:6]
	if got := Page(items, 2, 3); !slices.Equal(got, items[3:6]) {
		t.Fatalf("Page(2) = %v", got)
	}
	if got := PageTotal(6, 3); got != 2 {
		t.Fatalf("PageTotal(6, 3) = %d, want 2", got)
	}
}
