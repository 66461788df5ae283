// Package clicks counts ad clicks.
package clicks

// Counter counts ad clicks by name. The zero value is an empty Counter ready to use.
type Counter struct {
	counts map[string]int
	order  []string
}

// New returns an empty Counter.
func New() *Counter { return &Counter{counts: map[string]int{}} }

// Add records one more click called name.
func (c *Counter) Add(name string) {
	if c.counts == nil {
		c.counts = map[string]int{}
	}
	if _, ok := c.counts[name]; !ok {
		c.order = append(c.order, name)
	}
	c.counts[name]++
}

// Count returns how many times name was added.
func (c *Counter) Count(name string) int { return c.counts[name] }

// Names returns the names in the order they were first added.
func (c *Counter) Names() []string { return c.order }

// Reset forgets everything that was added.
func (c *Counter) Reset() {
	c.counts = nil
	c.order = nil
}
