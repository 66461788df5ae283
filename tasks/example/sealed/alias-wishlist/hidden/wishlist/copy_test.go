package wishlist

import (
	"slices"
	"testing"
)

func TestGiftsIsACopy(t *testing.T) {
	x := New("birthday", "kite", "book")
	got := x.Gifts()
	got[0] = "scarf"
	if x.Gifts()[0] != "kite" {
		t.Fatalf("changing the result of Gifts changed the Wishlist: %v", x.Gifts())
	}
}

func TestNewCopies(t *testing.T) {
	in := []string{"kite", "book", "scarf"}
	x := New("birthday", in...)
	in[1] = "lamp"
	if got := x.Gifts(); !slices.Equal(got, []string{"kite", "book", "scarf"}) {
		t.Fatalf("changing the slice passed to New changed the Wishlist: %v", got)
	}
}
