package parts

import "testing"

func TestBins(t *testing.T) {
	s := New()
	s.Restock("M4 bolt", 9)
	s.Restock("washer", 1)
	s.Restock("M4 bolt", 1)
	if err := s.Pick("M4 bolt", 2); err != nil {
		t.Fatal(err)
	}
	if got := s.Count("M4 bolt"); got != 9-1 {
		t.Fatalf("Count(%q) = %d, want %d", "M4 bolt", got, 9-1)
	}
	if got := s.Count("nothing"); got != 0 {
		t.Fatalf("Count of an unknown name = %d", got)
	}
}
