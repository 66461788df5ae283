package stock

import "testing"

func TestZeroShelf(t *testing.T) {
	var c Shelf
	if c.Count("apple") != 0 || len(c.Names()) != 0 {
		t.Fatal("a zero Shelf is not empty")
	}
	c.Add("pear")
	c.Add("pear")
	if c.Count("pear") != 2 {
		t.Fatalf("Count = %d, want 2", c.Count("pear"))
	}
}

func TestShelfAfterReset(t *testing.T) {
	c := New()
	c.Add("apple")
	c.Reset()
	if c.Count("apple") != 0 || len(c.Names()) != 0 {
		t.Fatal("Reset left entries behind")
	}
	c.Add("pear")
	c.Add("apple")
	if n := c.Names(); len(n) != 2 || n[0] != "pear" || c.Count("apple") != 1 {
		t.Fatalf("after Reset: Names = %v, Count = %d", n, c.Count("apple"))
	}
}
