package answers

import "testing"

func TestPutRefreshes(t *testing.T) {
	c := New(2)
	c.Set("a.example", "192.0.2.1")
	c.Set("b.example", "192.0.2.2")
	c.Set("a.example", "192.0.2.4")
	c.Set("c.example", "192.0.2.3")
	if _, ok := c.Get("b.example"); ok {
		t.Error("b.example should have been evicted")
	}
	if v, _ := c.Get("a.example"); v != "192.0.2.4" {
		t.Errorf("a.example = %v, want %v", v, "192.0.2.4")
	}
}

func TestGetRefreshes(t *testing.T) {
	c := New(3)
	c.Set("a.example", "192.0.2.1")
	c.Set("b.example", "192.0.2.2")
	c.Set("c.example", "192.0.2.3")
	c.Get("a.example")
	c.Get("b.example")
	c.Set("d.example", "192.0.2.4")
	if _, ok := c.Get("c.example"); ok {
		t.Error("c.example should have been evicted")
	}
	for _, k := range []string{"a.example", "b.example", "d.example"} {
		if _, ok := c.Get(k); !ok {
			t.Errorf("%s should still be cached", k)
		}
	}
}

func TestCapacityOne(t *testing.T) {
	c := New(1)
	c.Set("a.example", "192.0.2.1")
	c.Set("b.example", "192.0.2.2")
	if _, ok := c.Get("a.example"); ok {
		t.Error("a.example should be gone")
	}
	if v, ok := c.Get("b.example"); !ok || v != "192.0.2.2" {
		t.Error("b.example should be cached")
	}
}
