package pagecache

import "testing"

func TestEvictsLeastRecent(t *testing.T) {
	c := New(2)
	c.Keep("p1", 11)
	c.Keep("p2", 22)
	c.Fetch("p1")
	c.Keep("p3", 33)
	if _, ok := c.Fetch("p2"); ok {
		t.Error("p2 should have been evicted")
	}
	if v, ok := c.Fetch("p1"); !ok || v != 11 {
		t.Error("p1 should still be cached")
	}
}
