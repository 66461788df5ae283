package kits

import (
	"errors"
	"strings"
	"testing"
)

func TestNotFoundIs(t *testing.T) {
	s := NewStore()
	s.Put(Kit{ID: "veg-box-3", Name: "veggie box"})
	_, err := s.Get("x9")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "x9") {
		t.Fatalf("Get: err = %v, want one wrapping ErrNotFound and naming the id", err)
	}
	if err := s.Delete("x9"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Delete: err = %v, want one wrapping ErrNotFound", err)
	}
	if err := s.Delete("veg-box-3"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("veg-box-3"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get after Delete: err = %v", err)
	}
}
