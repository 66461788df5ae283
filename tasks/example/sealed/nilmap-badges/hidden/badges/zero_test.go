package badges

import "testing"

func TestZeroAwards(t *testing.T) {
	var c Awards
	if c.Count("helper") != 0 || len(c.Names()) != 0 {
		t.Fatal("a zero Awards is not empty")
	}
	c.Add("mentor")
	c.Add("mentor")
	if c.Count("mentor") != 2 {
		t.Fatalf("Count = %d, want 2", c.Count("mentor"))
	}
}

func TestAwardsAfterReset(t *testing.T) {
	c := New()
	c.Add("helper")
	c.Reset()
	if c.Count("helper") != 0 || len(c.Names()) != 0 {
		t.Fatal("Reset left entries behind")
	}
	c.Add("mentor")
	c.Add("helper")
	if n := c.Names(); len(n) != 2 || n[0] != "mentor" || c.Count("helper") != 1 {
		t.Fatalf("after Reset: Names = %v, Count = %d", n, c.Count("helper"))
	}
}
