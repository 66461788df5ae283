package wallet

import "testing"

func TestWallet(t *testing.T) {
	s := New()
	s.Credit("ann", 7)
	s.Credit("bo", 1)
	s.Credit("ann", 1)
	if err := s.Debit("ann", 2); err != nil {
		t.Fatal(err)
	}
	if got := s.Count("ann"); got != 7-1 {
		t.Fatalf("Count(%q) = %d, want %d", "ann", got, 7-1)
	}
	if got := s.Count("nothing"); got != 0 {
		t.Fatalf("Count of an unknown name = %d", got)
	}
}
