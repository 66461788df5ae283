// Package parts keeps count of spare parts.
package parts

import (
	"fmt"
	"sync"
)

// Bins counts spare parts by name. It is safe for concurrent use.
type Bins struct {
	mu     sync.Mutex
	counts map[string]int
}

// New returns an empty Bins.
func New() *Bins { return &Bins{counts: map[string]int{}} }

// Restock adds n pieces of name.
func (s *Bins) Restock(name string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[name] += n
}

// Count returns how many pieces of name there are.
func (s *Bins) Count(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[name]
}

// Pick removes n pieces of name. When there are fewer than n, nothing
// is removed and the error says how many there are.
func (s *Bins) Pick(name string, n int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.counts[name] < n {
		return fmt.Errorf("%s: want %d, have %d", name, n, s.Count(name))
	}
	s.counts[name] -= n
	return nil
}
