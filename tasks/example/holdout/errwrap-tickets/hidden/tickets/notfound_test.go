package tickets

import (
	"errors"
	"strings"
	"testing"
)

func TestNotFoundIs(t *testing.T) {
	s := NewStore()
	s.Put(Ticket{ID: "SD-1042", Name: "printer on fire"})
	_, err := s.Get("x9")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "x9") {
		t.Fatalf("Get: err = %v, want one wrapping ErrNotFound and naming the id", err)
	}
	if err := s.Delete("x9"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Delete: err = %v, want one wrapping ErrNotFound", err)
	}
	if err := s.Delete("SD-1042"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("SD-1042"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get after Delete: err = %v", err)
	}
}
