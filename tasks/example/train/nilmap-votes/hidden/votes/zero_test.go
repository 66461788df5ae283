package votes

import "testing"

func TestZeroBallot(t *testing.T) {
	var c Ballot
	if c.Count("yes") != 0 || len(c.Names()) != 0 {
		t.Fatal("a zero Ballot is not empty")
	}
	c.Add("no")
	c.Add("no")
	if c.Count("no") != 2 {
		t.Fatalf("Count = %d, want 2", c.Count("no"))
	}
}

func TestBallotAfterReset(t *testing.T) {
	c := New()
	c.Add("yes")
	c.Reset()
	if c.Count("yes") != 0 || len(c.Names()) != 0 {
		t.Fatal("Reset left entries behind")
	}
	c.Add("no")
	c.Add("yes")
	if n := c.Names(); len(n) != 2 || n[0] != "no" || c.Count("yes") != 1 {
		t.Fatalf("after Reset: Names = %v, Count = %d", n, c.Count("yes"))
	}
}
