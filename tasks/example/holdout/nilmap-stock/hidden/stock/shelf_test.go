package stock

import "testing"

func TestAdd(t *testing.T) {
	c := New()
	c.Add("apple")
	c.Add("pear")
	c.Add("apple")
	if c.Count("apple") != 2 || c.Count("pear") != 1 || c.Count("nobody") != 0 {
		t.Fatalf("counts %d %d %d", c.Count("apple"), c.Count("pear"), c.Count("nobody"))
	}
	if n := c.Names(); len(n) != 2 || n[0] != "apple" || n[1] != "pear" {
		t.Fatalf("Names = %v", n)
	}
}
