// Package bandwidth adds up transfers reported by many goroutines.
package bandwidth

import "sync"

// Meter is a running total that is safe for concurrent use.
type Meter struct {
	mu    sync.Mutex
	total int
	count int
}

// Add records one transfer of n kilobytes.
func (m *Meter) Add(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.total += n
	m.count++
}

// Total returns the kilobytes and the number of transfers added so far.
func (m *Meter) Total() (sum, count int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.total, m.count
}
