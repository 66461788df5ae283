// Package geoip caches country codes of IP addresses.
package geoip

import "sync"

// Cache remembers the results of a slow lookup. It is safe for
// concurrent use.
type Cache struct {
	mu     sync.RWMutex
	lookup func(key string) string
	m      map[string]string
}

// New returns an empty Cache that calls lookup for keys it has not seen.
func New(lookup func(key string) string) *Cache {
	return &Cache{lookup: lookup, m: map[string]string{}}
}

// Warm looks up keys ahead of time.
func (c *Cache) Warm(keys ...string) {
	for _, k := range keys {
		c.fill(k)
	}
}

// Country returns the country code for key. The lookup runs at most once per key.
func (c *Cache) Country(key string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if v, ok := c.m[key]; ok {
		return v
	}
	return c.fill(key)
}

func (c *Cache) fill(key string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[key]; ok {
		return v
	}
	v := c.lookup(key)
	c.m[key] = v
	return v
}
