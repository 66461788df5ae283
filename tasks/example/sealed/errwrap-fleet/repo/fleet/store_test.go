package fleet

import (
	"strings"
	"testing"
)

func TestStore(t *testing.T) {
	s := NewStore()
	s.Put(Vehicle{ID: "TRK-7", Name: "blue van"})
	if x, err := s.Get("TRK-7"); err != nil || x.Name != "blue van" {
		t.Fatalf("Get = %v, %v", x, err)
	}
	if _, err := s.Get("nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("Get of a missing id: err = %v", err)
	}
}
