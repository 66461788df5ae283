package products

import (
	"slices"
	"testing"
)

func TestListing(t *testing.T) {
	items := []string{"mug", "lamp", "desk", "chair", "rug", "vase", "clock"}[:6]
	if got := Listing(items, 2, 3); !slices.Equal(got, items[3:6]) {
		t.Fatalf("Listing(2) = %v", got)
	}
	if got := ListingPages(6, 3); got != 2 {
		t.Fatalf("ListingPages(6, 3) = %d, want 2", got)
	}
}
