package clicks

import "testing"

func TestAdd(t *testing.T) {
	c := New()
	c.Add("banner-1")
	c.Add("video-7")
	c.Add("banner-1")
	if c.Count("banner-1") != 2 || c.Count("video-7") != 1 || c.Count("nobody") != 0 {
		t.Fatalf("counts %d %d %d", c.Count("banner-1"), c.Count("video-7"), c.Count("nobody"))
	}
	if n := c.Names(); len(n) != 2 || n[0] != "banner-1" || n[1] != "video-7" {
		t.Fatalf("Names = %v", n)
	}
}
