package units

import "testing"

func TestBank(t *testing.T) {
	s := New()
	s.Donate("O-", 5)
	s.Donate("AB+", 1)
	s.Donate("O-", 1)
	if err := s.Issue("O-", 2); err != nil {
		t.Fatal(err)
	}
	if got := s.Count("O-"); got != 5-1 {
		t.Fatalf("Count(%q) = %d, want %d", "O-", got, 5-1)
	}
	if got := s.Count("nothing"); got != 0 {
		t.Fatalf("Count of an unknown name = %d", got)
	}
}
