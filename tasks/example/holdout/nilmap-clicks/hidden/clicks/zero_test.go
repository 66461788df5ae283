package clicks

import "testing"

func TestZeroCounter(t *testing.T) {
	var c Counter
	if c.Count("banner-1") != 0 || len(c.Names()) != 0 {
		t.Fatal("a zero Counter is not empty")
	}
	c.Add("video-7")
	c.Add("video-7")
	if c.Count("video-7") != 2 {
		t.Fatalf("Count = %d, want 2", c.Count("video-7"))
	}
}

func TestCounterAfterReset(t *testing.T) {
	c := New()
	c.Add("banner-1")
	c.Reset()
	if c.Count("banner-1") != 0 || len(c.Names()) != 0 {
		t.Fatal("Reset left entries behind")
	}
	c.Add("video-7")
	c.Add("banner-1")
	if n := c.Names(); len(n) != 2 || n[0] != "video-7" || c.Count("banner-1") != 1 {
		t.Fatalf("after Reset: Names = %v, Count = %d", n, c.Count("banner-1"))
	}
}
