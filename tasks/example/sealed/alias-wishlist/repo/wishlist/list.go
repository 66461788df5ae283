// Package wishlist keeps wish lists.
package wishlist

// Wishlist is a named list of gifts.
type Wishlist struct {
	Name  string
	items []string
}

// New returns a Wishlist holding a copy of items.
func New(name string, items ...string) *Wishlist {
	return &Wishlist{Name: name, items: items}
}

// Wish appends an item.
func (x *Wishlist) Wish(item string) { x.items = append(x.items, item) }

// Gifts returns the items in order. The result is the caller's: changing
// it does not change x.
func (x *Wishlist) Gifts() []string { return x.items }
