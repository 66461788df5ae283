// Package uploads adds up uploads reported by many goroutines.
package uploads

import "sync"

// Usage is a running total that is safe for concurrent use.
type Usage struct {
	mu    sync.Mutex
	total int
	count int
}

// Add records one upload of n bytes.
func (m Usage) Add(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.total += n
	m.count++
}

// Total returns the bytes and the number of uploads added so far.
func (m *Usage) Total() (sum, count int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.total, m.count
}
