package library

import (
	"strings"
	"testing"
)

func TestStore(t *testing.T) {
	s := NewStore()
	s.Put(Book{ID: "b17", Name: "Dune"})
	if x, err := s.Get("b17"); err != nil || x.Name != "Dune" {
		t.Fatalf("Get = %v, %v", x, err)
	}
	if _, err := s.Get("nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("Get of a missing id: err = %v", err)
	}
}
