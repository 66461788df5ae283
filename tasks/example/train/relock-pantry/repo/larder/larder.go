// Package larder keeps count of ingredients.
package larder

import (
	"fmt"
	"sync"
)

// Larder counts ingredients by name. It is safe for concurrent use.
type Larder struct {
	mu     sync.Mutex
	counts map[string]int
}

// New returns an empty Larder.
func New() *Larder { return &Larder{counts: map[string]int{}} }

// Stock adds n portions of name.
func (s *Larder) Stock(name string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[name] += n
}

// Count returns how many portions of name there are.
func (s *Larder) Count(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[name]
}

// Use removes n portions of name. When there are fewer than n, nothing
// is removed and the error says how many there are.
func (s *Larder) Use(name string, n int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.counts[name] < n {
		return fmt.Errorf("%s: want %d, have %d", name, n, s.Count(name))
	}
	s.counts[name] -= n
	return nil
}
