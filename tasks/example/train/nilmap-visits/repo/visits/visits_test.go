package visits

import "testing"

func TestAdd(t *testing.T) {
	c := New()
	c.Add("/home")
	c.Add("/about")
	c.Add("/home")
	if c.Count("/home") != 2 || c.Count("/about") != 1 || c.Count("nobody") != 0 {
		t.Fatalf("counts %d %d %d", c.Count("/home"), c.Count("/about"), c.Count("nobody"))
	}
	if n := c.Names(); len(n) != 2 || n[0] != "/home" || n[1] != "/about" {
		t.Fatalf("Names = %v", n)
	}
}
