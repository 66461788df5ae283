// Package tally adds up votes reported by many goroutines.
package tally

import "sync"

// Votes is a running total that is safe for concurrent use.
type Votes struct {
	mu    sync.Mutex
	total int
	count int
}

// Add records one vote of n points.
func (m Votes) Add(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.total += n
	m.count++
}

// Total returns the points and the number of votes added so far.
func (m *Votes) Total() (sum, count int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.total, m.count
}
