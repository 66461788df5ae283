package visits

import "testing"

func TestZeroVisits(t *testing.T) {
	var c Visits
	if c.Count("/home") != 0 || len(c.Names()) != 0 {
		t.Fatal("a zero Visits is not empty")
	}
	c.Add("/about")
	c.Add("/about")
	if c.Count("/about") != 2 {
		t.Fatalf("Count = %d, want 2", c.Count("/about"))
	}
}

func TestVisitsAfterReset(t *testing.T) {
	c := New()
	c.Add("/home")
	c.Reset()
	if c.Count("/home") != 0 || len(c.Names()) != 0 {
		t.Fatal("Reset left entries behind")
	}
	c.Add("/about")
	c.Add("/home")
	if n := c.Names(); len(n) != 2 || n[0] != "/about" || c.Count("/home") != 1 {
		t.Fatalf("after Reset: Names = %v, Count = %d", n, c.Count("/home"))
	}
}
