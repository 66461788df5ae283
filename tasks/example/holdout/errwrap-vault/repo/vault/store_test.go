package vault

import (
	"strings"
	"testing"
)

func TestStore(t *testing.T) {
	s := NewStore()
	s.Put(Secret{ID: "db-password", Name: "primary"})
	if x, err := s.Get("db-password"); err != nil || x.Name != "primary" {
		t.Fatalf("Get = %v, %v", x, err)
	}
	if _, err := s.Get("nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("Get of a missing id: err = %v", err)
	}
}
