package parts

import (
	"strings"
	"testing"
	"time"
)

func TestPickTooMany(t *testing.T) {
	s := New()
	s.Restock("M4 bolt", 2)
	done := make(chan error, 1)
	go func() { done <- s.Pick("M4 bolt", 5) }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "have 2") {
			t.Fatalf("Pick(5) with 2 left: err = %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Pick(5) with 2 left did not return within 2s")
	}
	if n := s.Count("M4 bolt"); n != 2 {
		t.Fatalf("Count = %d after a failed Pick, want 2", n)
	}
}
