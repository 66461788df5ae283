// Package tokens is a small least-recently-used cache of token expiry times.
package tokens

import "container/list"

type entry struct {
	key   string
	value int
}

// Store holds at most Cap entries; when full, adding one evicts the
// entry used least recently. Lookup and Remember both count as a use.
type Store struct {
	Cap   int
	order *list.List
	items map[string]*list.Element
}

// New returns an empty cache of capacity n.
func New(n int) *Store { return &Store{Cap: n, order: list.New(), items: map[string]*list.Element{}} }

// Lookup returns the value for key.
func (c *Store) Lookup(key string) (int, bool) {
	e, ok := c.items[key]
	if !ok {
		var zero int
		return zero, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*entry).value, true
}

// Remember stores value under key.
func (c *Store) Remember(key string, value int) {
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
