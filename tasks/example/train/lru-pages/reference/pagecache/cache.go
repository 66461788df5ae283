// Package pagecache is a small least-recently-used cache of rendered page sizes.
package pagecache

import "container/list"

type entry struct {
	key   string
	value int
}

// Pages holds at most Cap entries; when full, adding one evicts the
// entry used least recently. Fetch and Keep both count as a use.
type Pages struct {
	Cap   int
	order *list.List
	items map[string]*list.Element
}

// New returns an empty cache of capacity n.
func New(n int) *Pages { return &Pages{Cap: n, order: list.New(), items: map[string]*list.Element{}} }

// Fetch returns the value for key.
func (c *Pages) Fetch(key string) (int, bool) {
	e, ok := c.items[key]
	if !ok {
		var zero int
		return zero, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*entry).value, true
}

// Keep stores value under key.
func (c *Pages) Keep(key string, value int) {
	if e, ok := c.items[key]; ok {
		e.Value.(*entry).value = value
		c.order.MoveToFront(e)
		return
	}
	if c.order.Len() >= c.Cap {
		victim := c.order.Back()
		c.order.Remove(victim)
		delete(c.items, victim.Value.(*entry).key)
	}
	c.items[key] = c.order.PushFront(&entry{key, value})
}
