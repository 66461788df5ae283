package tickets

import (
	"strings"
	"testing"
)

func TestStore(t *testing.T) {
	s := NewStore()
	s.Put(Ticket{ID: "SD-1042", Name: "printer on fire"})
	if x, err := s.Get("SD-1042"); err != nil || x.Name != "printer on fire" {
		t.Fatalf("Get = %v, %v", x, err)
	}
	if _, err := s.Get("nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("Get of a missing id: err = %v", err)
	}
}
