package comments

import (
	"slices"
	"testing"
)

func TestPage(t *testing.T) {
	items := []string{"first!", "nice", "+1", "agreed", "source?", "thanks", "lol"}[:6]
	if got := Page(items, 2, 3); !slices.Equal(got, items[3:6]) {
		t.Fatalf("Page(2) = %v", got)
	}
	if got := Pages(6, 3); got != 2 {
		t.Fatalf("Pages(6, 3) = %d, want 2", got)
	}
}
