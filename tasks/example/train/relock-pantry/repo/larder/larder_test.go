package larder

import "testing"

func TestLarder(t *testing.T) {
	s := New()
	s.Stock("flour", 4)
	s.Stock("eggs", 1)
	s.Stock("flour", 1)
	if err := s.Use("flour", 2); err != nil {
		t.Fatal(err)
	}
	if got := s.Count("flour"); got != 4-1 {
		t.Fatalf("Count(%q) = %d, want %d", "flour", got, 4-1)
	}
	if got := s.Count("nothing"); got != 0 {
		t.Fatalf("Count of an unknown name = %d", got)
	}
}
