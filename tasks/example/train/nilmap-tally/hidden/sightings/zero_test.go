package sightings

import "testing"

func TestZeroTally(t *testing.T) {
	var c Tally
	if c.Count("robin") != 0 || len(c.Names()) != 0 {
		t.Fatal("a zero Tally is not empty")
	}
	c.Add("wren")
	c.Add("wren")
	if c.Count("wren") != 2 {
		t.Fatalf("Count = %d, want 2", c.Count("wren"))
	}
}

func TestTallyAfterReset(t *testing.T) {
	c := New()
	c.Add("robin")
	c.Reset()
	if c.Count("robin") != 0 || len(c.Names()) != 0 {
		t.Fatal("Reset left entries behind")
	}
	c.Add("wren")
	c.Add("robin")
	if n := c.Names(); len(n) != 2 || n[0] != "wren" || c.Count("robin") != 1 {
		t.Fatalf("after Reset: Names = %v, Count = %d", n, c.Count("robin"))
	}
}
