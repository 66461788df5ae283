// Package votes counts votes.
package votes

// Ballot counts votes by name. The zero value is an empty Ballot ready to use.
type Ballot struct {
	counts map[string]int
	order  []string
}

// New returns an empty Ballot.
func New() *Ballot { return &Ballot{counts: map[string]int{}} }

// Add records one more vote called name.
func (c *Ballot) Add(name string) {
	if _, ok := c.counts[name]; !ok {
		c.order = append(c.order, name)
	}
	c.counts[name]++
}

// Count returns how many times name was added.
func (c *Ballot) Count(name string) int { return c.counts[name] }

// Names returns the names in the order they were first added.
func (c *Ballot) Names() []string { return c.order }

// Reset forgets everything that was added.
func (c *Ballot) Reset() {
	c.counts = nil
	c.order = nil
}
