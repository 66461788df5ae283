// Package wallet keeps count of coins per player.
package wallet

import (
	"fmt"
	"sync"
)

// Wallet counts coins per player by name. It is safe for concurrent use.
type Wallet struct {
	mu     sync.Mutex
	counts map[string]int
}

// New returns an empty Wallet.
func New() *Wallet { return &Wallet{counts: map[string]int{}} }

// Credit adds n coins of name.
func (s *Wallet) Credit(name string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[name] += n
}

// Count returns how many coins of name there are.
func (s *Wallet) Count(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[name]
}

// Debit removes n coins of name. When there are fewer than n, nothing
// is removed and the error says how many there are.
func (s *Wallet) Debit(name string, n int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.counts[name] < n {
		return fmt.Errorf("%s: want %d, have %d", name, n, s.counts[name])
	}
	s.counts[name] -= n
	return nil
}

// Transfer moves n coins from one name to another, or fails like Debit.
func (s *Wallet) Transfer(from, to string, n int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.counts[from] < n {
		return fmt.Errorf("%s: want %d, have %d", from, n, s.counts[from])
	}
	s.counts[from] -= n
	s.counts[to] += n
	return nil
}
