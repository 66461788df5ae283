// Package badges counts badges awarded.
package badges

// Awards counts badges awarded by name. The zero value is an empty Awards ready to use.
type Awards struct {
	counts map[string]int
	order  []string
}

// New returns an empty Awards.
func New() *Awards { return &Awards{counts: map[string]int{}} }

// Add records one more badge called name.
func (c *Awards) Add(name string) {
	if _, ok := c.counts[name]; !ok {
		c.order = append(c.order, name)
	}
	c.counts[name]++
}

// Count returns how many times name was added.
func (c *Awards) Count(name string) int { return c.counts[name] }

// Names returns the names in the order they were first added.
func (c *Awards) Names() []string { return c.order }

// Reset forgets everything that was added.
func (c *Awards) Reset() {
	c.counts = nil
	c.order = nil
}
