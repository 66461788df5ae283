package sightings

import "testing"

func TestAdd(t *testing.T) {
	c := New()
	c.Add("robin")
	c.Add("wren")
	c.Add("robin")
	if c.Count("robin") != 2 || c.Count("wren") != 1 || c.Count("nobody") != 0 {
		t.Fatalf("counts %d %d %d", c.Count("robin"), c.Count("wren"), c.Count("nobody"))
	}
	if n := c.Names(); len(n) != 2 || n[0] != "robin" || n[1] != "wren" {
		t.Fatalf("Names = %v", n)
	}
}
