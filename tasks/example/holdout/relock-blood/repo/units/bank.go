// Package units keeps count of blood units by group.
package units

import (
	"fmt"
	"sync"
)

// Bank counts blood units by group by name. It is safe for concurrent use.
type Bank struct {
	mu     sync.Mutex
	counts map[string]int
}

// New returns an empty Bank.
func New() *Bank { return &Bank{counts: map[string]int{}} }

// Donate adds n units of name.
func (s *Bank) Donate(name string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[name] += n
}

// Count returns how many units of name there are.
func (s *Bank) Count(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[name]
}

// Issue removes n units of name. When there are fewer than n, nothing
// is removed and the error says how many there are.
func (s *Bank) Issue(name string, n int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.counts[name] < n {
		return fmt.Errorf("%s: want %d, have %d", name, n, s.Count(name))
	}
	s.counts[name] -= n
	return nil
}
