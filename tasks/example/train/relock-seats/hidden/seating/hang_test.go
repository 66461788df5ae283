package seating

import (
	"testing"
	"time"
)

func TestSwap(t *testing.T) {
	s := New()
	s.Free("row-A", 5)
	done := make(chan error, 1)
	go func() { done <- s.Swap("row-A", "row-B", 3) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Swap: %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Swap did not return within 2s")
	}
	if s.Count("row-A") != 2 || s.Count("row-B") != 3 {
		t.Fatalf("after Swap: %d and %d, want 2 and 3", s.Count("row-A"), s.Count("row-B"))
	}
	if err := s.Swap("row-A", "row-B", 9); err == nil {
		t.Fatal("moving more than there is gave no error")
	}
}
