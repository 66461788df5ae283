// Package stock counts items on a shelf.
package stock

// Shelf counts items on a shelf by name. The zero value is an empty Shelf ready to use.
type Shelf struct {
	counts map[string]int
	order  []string
}

// New returns an empty Shelf.
func New() *Shelf { return &Shelf{counts: map[string]int{}} }

// Add records one more item called name.
func (c *Shelf) Add(name string) {
	if _, ok := c.counts[name]; !ok {
		c.order = append(c.order, name)
	}
	c.counts[name]++
}

// Count returns how many times name was added.
func (c *Shelf) Count(name string) int { return c.counts[name] }

// Names returns the names in the order they were first added.
func (c *Shelf) Names() []string { return c.order }

// Reset forgets everything that was added.
func (c *Shelf) Reset() {
	c.counts = nil
	c.order = nil
}
