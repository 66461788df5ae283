package thumbs

import "testing"

func TestPutRefreshes(t *testing.T) {
	c := New(2)
	c.Put("cat.jpg", "/t/1")
	c.Put("dog.jpg", "/t/2")
	c.Put("cat.jpg", "/t/4")
	c.Put("owl.jpg", "/t/3")
	if _, ok := c.Get("dog.jpg"); ok {
		t.Error("dog.jpg should have been evicted")
	}
	if v, _ := c.Get("cat.jpg"); v != "/t/4" {
		t.Errorf("cat.jpg = %v, want %v", v, "/t/4")
	}
}

func TestGetRefreshes(t *testing.T) {
	c := New(3)
	c.Put("cat.jpg", "/t/1")
	c.Put("dog.jpg", "/t/2")
	c.Put("owl.jpg", "/t/3")
	c.Get("cat.jpg")
	c.Get("dog.jpg")
	c.Put("fox.jpg", "/t/4")
	if _, ok := c.Get("owl.jpg"); ok {
		t.Error("owl.jpg should have been evicted")
	}
	for _, k := range []string{"cat.jpg", "dog.jpg", "fox.jpg"} {
		if _, ok := c.Get(k); !ok {
			t.Errorf("%s should still be cached", k)
		}
	}
}

func TestCapacityOne(t *testing.T) {
	c := New(1)
	c.Put("cat.jpg", "/t/1")
	c.Put("dog.jpg", "/t/2")
	if _, ok := c.Get("cat.jpg"); ok {
		t.Error("cat.jpg should be gone")
	}
	if v, ok := c.Get("dog.jpg"); !ok || v != "/t/2" {
		t.Error("dog.jpg should be cached")
	}
}
