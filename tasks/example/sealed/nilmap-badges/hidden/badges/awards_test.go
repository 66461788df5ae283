package badges

import "testing"

func TestAdd(t *testing.T) {
	c := New()
	c.Add("helper")
	c.Add("mentor")
	c.Add("helper")
	if c.Count("helper") != 2 || c.Count("mentor") != 1 || c.Count("nobody") != 0 {
		t.Fatalf("counts %d %d %d", c.Count("helper"), c.Count("mentor"), c.Count("nobody"))
	}
	if n := c.Names(); len(n) != 2 || n[0] != "helper" || n[1] != "mentor" {
		t.Fatalf("Names = %v", n)
	}
}
