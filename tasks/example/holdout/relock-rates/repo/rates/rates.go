// Package rates caches exchange rates.
package rates

import "sync"

// Rates remembers the results of a slow lookup. It is safe for
// concurrent use.
type Rates struct {
	mu     sync.RWMutex
	lookup func(key string) string
	m      map[string]string
}

// New returns an empty Rates that calls lookup for keys it has not seen.
func New(lookup func(key string) string) *Rates {
	return &Rates{lookup: lookup, m: map[string]string{}}
}

// Warm looks up keys ahead of time.
func (c *Rates) Warm(keys ...string) {
	for _, k := range keys {
		c.fill(k)
	}
}

// Rate returns the rate for key. The lookup runs at most once per key.
func (c *Rates) Rate(key string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if v, ok := c.m[key]; ok {
		return v
	}
	return c.fill(key)
}

func (c *Rates) fill(key string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[key]; ok {
		return v
	}
	v := c.lookup(key)
	c.m[key] = v
	return v
}
