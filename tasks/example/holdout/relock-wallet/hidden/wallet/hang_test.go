package wallet

import (
	"testing"
	"time"
)

func TestTransfer(t *testing.T) {
	s := New()
	s.Credit("ann", 5)
	done := make(chan error, 1)
	go func() { done <- s.Transfer("ann", "bo", 3) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Transfer: %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Transfer did not return within 2s")
	}
	if s.Count("ann") != 2 || s.Count("bo") != 3 {
		t.Fatalf("after Transfer: %d and %d, want 2 and 3", s.Count("ann"), s.Count("bo"))
	}
	if err := s.Transfer("ann", "bo", 9); err == nil {
		t.Fatal("moving more than there is gave no error")
	}
}
