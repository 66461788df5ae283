// Package energy adds up readings reported by many goroutines.
package energy

import "sync"

// Yield is a running total that is safe for concurrent use.
type Yield struct {
	mu    sync.Mutex
	total int
	count int
}

// Add records one reading of n watt-hours.
func (m Yield) Add(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.total += n
	m.count++
}

// Total returns the watt-hours and the number of readings added so far.
func (m *Yield) Total() (sum, count int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.total, m.count
}
