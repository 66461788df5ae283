package pagecache

import "testing"

func TestPutRefreshes(t *testing.T) {
	c := New(2)
	c.Keep("p1", 11)
	c.Keep("p2", 22)
	c.Keep("p1", 44)
	c.Keep("p3", 33)
	if _, ok := c.Fetch("p2"); ok {
		t.Error("p2 should have been evicted")
	}
	if v, _ := c.Fetch("p1"); v != 44 {
		t.Errorf("p1 = %v, want %v", v, 44)
	}
}

func TestGetRefreshes(t *testing.T) {
	c := New(3)
	c.Keep("p1", 11)
	c.Keep("p2", 22)
	c.Keep("p3", 33)
	c.Fetch("p1")
	c.Fetch("p2")
	c.Keep("p4", 44)
	if _, ok := c.Fetch("p3"); ok {
		t.Error("p3 should have been evicted")
	}
	for _, k := range []string{"p1", "p2", "p4"} {
		if _, ok := c.Fetch(k); !ok {
			t.Errorf("%s should still be cached", k)
		}
	}
}

func TestCapacityOne(t *testing.T) {
	c := New(1)
	c.Keep("p1", 11)
	c.Keep("p2", 22)
	if _, ok := c.Fetch("p1"); ok {
		t.Error("p1 should be gone")
	}
	if v, ok := c.Fetch("p2"); !ok || v != 22 {
		t.Error("p2 should be cached")
	}
}
