// Package thumbs is a small least-recently-used cache of thumbnail paths.
package thumbs

import "container/list"

type entry struct {
	key   string
	value string
}

// Cache holds at most Cap entries; when full, adding one evicts the
// entry used least recently. Get and Put both count as a use.
type Cache struct {
	Cap   int
	order *list.List
	items map[string]*list.Element
}

// New returns an empty cache of capacity n.
func New(n int) *Cache { return &Cache{Cap: n, order: list.New(), items: map[string]*list.Element{}} }

// Get returns the value for key.
func (c *Cache) Get(key string) (string, bool) {
	e, ok := c.items[key]
	if !ok {
		var zero string
		return zero, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*entry).value, true
}

// Put stores value under key.
func (c *Cache) Put(key string, value string) {
	if e, ok := c.items[key]; ok {
		e.Value.(*entry).value = value
		c.order.MoveToFront(e)
		return
	}
	if c.order.Len() >= c.Cap {
		victim := c.order.Front()
		c.order.Remove(victim)
		delete(c.items, victim.Value.(*entry).key)
	}
	c.items[key] = c.order.PushFront(&entry{key, value})
}
