package thumbs

import "testing"

func TestEvictsLeastRecent(t *testing.T) {
	c := New(2)
	c.Put("cat.jpg", "/t/1")
	c.Put("dog.jpg", "/t/2")
	c.Get("cat.jpg")
	c.Put("owl.jpg", "/t/3")
	if _, ok := c.Get("dog.jpg"); ok {
		t.Error("dog.jpg should have been evicted")
	}
	if v, ok := c.Get("cat.jpg"); !ok || v != "/t/1" {
		t.Error("cat.jpg should still be cached")
	}
}
