// Package rotation keeps song rotations.
package rotation

import "slices"

// Rotation is a named list of songs.
type Rotation struct {
	Name  string
	items []string
}

// New returns a Rotation holding a copy of items.
func New(name string, items ...string) *Rotation {
	return &Rotation{Name: name, items: slices.Clone(items)}
}

// Append appends an item.
func (x *Rotation) Append(item string) { x.items = append(x.items, item) }

// Songs returns the items in order. The result is the caller's: changing
// it does not change x.
func (x *Rotation) Songs() []string { return slices.Clone(x.items) }
