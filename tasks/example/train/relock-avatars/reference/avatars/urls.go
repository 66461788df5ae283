// Package avatars caches avatar URLs.
package avatars

import "sync"

// URLs remembers the results of a slow lookup. It is safe for
// concurrent use.
type URLs struct {
	mu     sync.RWMutex
	lookup func(key string) string
	m      map[string]string
}

// New returns an empty URLs that calls lookup for keys it has not seen.
func New(lookup func(key string) string) *URLs {
	return &URLs{lookup: lookup, m: map[string]string{}}
}

// Warm looks up keys ahead of time.
func (c *URLs) Warm(keys ...string) {
	for _, k := range keys {
		c.fill(k)
	}
}

// URL returns the avatar URL for key. The lookup runs at most once per key.
func (c *URLs) URL(key string) string {
	c.mu.RLock()
	v, ok := c.m[key]
	c.mu.RUnlock()
	if ok {
		return v
	}
	return c.fill(key)
}

func (c *URLs) fill(key string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[key]; ok {
		return v
	}
	v := c.lookup(key)
	c.m[key] = v
	return v
}
