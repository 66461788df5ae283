package gallery

import (
	"slices"
	"testing"
)

func TestPageOf(t *testing.T) {
	items := []string{"beach.jpg", "dog.jpg", "cake.jpg", "snow.jpg", "bike.jpg", "tree.jpg", "moon.jpg"}[:6]
	if got := PageOf(items, 2, 3); !slices.Equal(got, items[3:6]) {
		t.Fatalf("PageOf(2) = %v", got)
	}
	if got := PageCount(6, 3); got != 2 {
		t.Fatalf("PageCount(6, 3) = %d, want 2", got)
	}
}
