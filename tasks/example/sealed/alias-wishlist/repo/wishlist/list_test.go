package wishlist

import (
	"slices"
	"testing"
)

func TestGifts(t *testing.T) {
	x := New("birthday", "kite")
	x.Wish("book")
	if got := x.Gifts(); !slices.Equal(got, []string{"kite", "book"}) {
		t.Fatalf("Gifts = %v", got)
	}
}
