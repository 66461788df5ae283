package seating

import "testing"

func TestHall(t *testing.T) {
	s := New()
	s.Free("row-A", 6)
	s.Free("row-B", 1)
	s.Free("row-A", 1)
	if err := s.Book("row-A", 2); err != nil {
		t.Fatal(err)
	}
	if got := s.Count("row-A"); got != 6-1 {
		t.Fatalf("Count(%q) = %d, want %d", "row-A", got, 6-1)
	}
	if got := s.Count("nothing"); got != 0 {
		t.Fatalf("Count of an unknown name = %d", got)
	}
}
