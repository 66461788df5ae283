// Package sightings counts bird sightings.
package sightings

// Tally counts bird sightings by name. The zero value is an empty Tally ready to use.
type Tally struct {
	counts map[string]int
	order  []string
}

// New returns an empty Tally.
func New() *Tally { return &Tally{counts: map[string]int{}} }

// Add records one more sighting called name.
func (c *Tally) Add(name string) {
	if _, ok := c.counts[name]; !ok {
		c.order = append(c.order, name)
	}
	c.counts[name]++
}

// Count returns how many times name was added.
func (c *Tally) Count(name string) int { return c.counts[name] }

// Names returns the names in the order they were first added.
func (c *Tally) Names() []string { return c.order }

// Reset forgets everything that was added.
func (c *Tally) Reset() {
	c.counts = nil
	c.order = nil
}
