package sessions

import "testing"

func TestPutRefreshes(t *testing.T) {
	c := New(2)
	c.Put("a", 1)
	c.Put("b", 2)
	c.Put("a", 10)
	c.Put("c", 3)
	if _, ok := c.Get("b"); ok {
		t.Error("b should have been evicted")
	}
	if v, _ := c.Get("a"); v != 10 {
		t.Errorf("a = %d, want 10", v)
	}
}

func TestCapacityOne(t *testing.T) {
	c := New(1)
	c.Put("x", 1)
	c.Put("y", 2)
	if _, ok := c.Get("x"); ok {
		t.Error("x should be gone")
	}
	if v, ok := c.Get("y"); !ok || v != 2 {
		t.Error("y should be cached")
	}
}
