package larder

import (
	"strings"
	"testing"
	"time"
)

func TestUseTooMany(t *testing.T) {
	s := New()
	s.Stock("flour", 2)
	done := make(chan error, 1)
	go func() { done <- s.Use("flour", 5) }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "have 2") {
			t.Fatalf("Use(5) with 2 left: err = %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Use(5) with 2 left did not return within 2s")
	}
	if n := s.Count("flour"); n != 2 {
		t.Fatalf("Count = %d after a failed Use, want 2", n)
	}
}
