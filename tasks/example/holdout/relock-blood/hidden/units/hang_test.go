package units

import (
	"strings"
	"testing"
	"time"
)

func TestIssueTooMany(t *testing.T) {
	s := New()
	s.Donate("O-", 2)
	done := make(chan error, 1)
	go func() { done <- s.Issue("O-", 5) }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "have 2") {
			t.Fatalf("Issue(5) with 2 left: err = %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Issue(5) with 2 left did not return within 2s")
	}
	if n := s.Count("O-"); n != 2 {
		t.Fatalf("Count = %d after a failed Issue, want 2", n)
	}
}
