package votes

import "testing"

func TestAdd(t *testing.T) {
	c := New()
	c.Add("yes")
	c.Add("no")
	c.Add("yes")
	if c.Count("yes") != 2 || c.Count("no") != 1 || c.Count("nobody") != 0 {
		t.Fatalf("counts %d %d %d", c.Count("yes"), c.Count("no"), c.Count("nobody"))
	}
	if n := c.Names(); len(n) != 2 || n[0] != "yes" || n[1] != "no" {
		t.Fatalf("Names = %v", n)
	}
}
