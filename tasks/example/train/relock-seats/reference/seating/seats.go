// Package seating keeps count of free seats per row.
package seating

import (
	"fmt"
	"sync"
)

// Hall counts free seats per row by name. It is safe for concurrent use.
type Hall struct {
	mu     sync.Mutex
	counts map[string]int
}

// New returns an empty Hall.
func New() *Hall { return &Hall{counts: map[string]int{}} }

// Free adds n seats of name.
func (s *Hall) Free(name string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[name] += n
}

// Count returns how many seats of name there are.
func (s *Hall) Count(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[name]
}

// Book removes n seats of name. When there are fewer than n, nothing
// is removed and the error says how many there are.
func (s *Hall) Book(name string, n int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.counts[name] < n {
		return fmt.Errorf("%s: want %d, have %d", name, n, s.counts[name])
	}
	s.counts[name] -= n
	return nil
}

// Swap moves n seats from one name to another, or fails like Book.
func (s *Hall) Swap(from, to string, n int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.counts[from] < n {
		return fmt.Errorf("%s: want %d, have %d", from, n, s.counts[from])
	}
	s.counts[from] -= n
	s.counts[to] += n
	return nil
}
