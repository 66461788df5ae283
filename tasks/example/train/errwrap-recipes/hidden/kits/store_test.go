package kits

import (
	"strings"
	"testing"
)

func TestStore(t *testing.T) {
	s := NewStore()
	s.Put(Kit{ID: "veg-box-3", Name: "veggie box"})
	if x, err := s.Get("veg-box-3"); err != nil || x.Name != "veggie box" {
		t.Fatalf("Get = %v, %v", x, err)
	}
	if _, err := s.Get("nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("Get of a missing id: err = %v", err)
	}
}
