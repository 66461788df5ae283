package answers

import "testing"

func TestEvictsLeastRecent(t *testing.T) {
	c := New(2)
	c.Set("a.example", "192.0.2.1")
	c.Set("b.example", "192.0.2.2")
	c.Get("a.example")
	c.Set("c.example", "192.0.2.3")
	if _, ok := c.Get("b.example"); ok {
		t.Error("b.example should have been evicted")
	}
	if v, ok := c.Get("a.example"); !ok || v != "192.0.2.1" {
		t.Error("a.example should still be cached")
	}
}
