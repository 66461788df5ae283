// Package visits counts page visits.
package visits

// Visits counts page visits by name. The zero value is an empty Visits ready to use.
type Visits struct {
	counts map[string]int
	order  []string
}

// New returns an empty Visits.
func New() *Visits { return &Visits{counts: map[string]int{}} }

// Add records one more visit called name.
func (c *Visits) Add(name string) {
	if c.counts == nil {
		c.counts = map[string]int{}
	}
	if _, ok := c.counts[name]; !ok {
		c.order = append(c.order, name)
	}
	c.counts[name]++
}

// Count returns how many times name was added.
func (c *Visits) Count(name string) int { return c.counts[name] }

// Names returns the names in the order they were first added.
func (c *Visits) Names() []string { return c.order }

// Reset forgets everything that was added.
func (c *Visits) Reset() {
	c.counts = nil
	c.order = nil
}
