package tokens

import "testing"

func TestPutRefreshes(t *testing.T) {
	c := New(2)
	c.Remember("tok-a", 1700)
	c.Remember("tok-b", 1800)
	c.Remember("tok-a", 2000)
	c.Remember("tok-c", 1900)
	if _, ok := c.Lookup("tok-b"); ok {
		t.Error("tok-b should have been evicted")
	}
	if v, _ := c.Lookup("tok-a"); v != 2000 {
		t.Errorf("tok-a = %v, want %v", v, 2000)
	}
}

func TestGetRefreshes(t *testing.T) {
	c := New(3)
	c.Remember("tok-a", 1700)
	c.Remember("tok-b", 1800)
	c.Remember("tok-c", 1900)
	c.Lookup("tok-a")
	c.Lookup("tok-b")
	c.Remember("tok-d", 2000)
	if _, ok := c.Lookup("tok-c"); ok {
		t.Error("tok-c should have been evicted")
	}
	for _, k := range []string{"tok-a", "tok-b", "tok-d"} {
		if _, ok := c.Lookup(k); !ok {
			t.Errorf("%s should still be cached", k)
		}
	}
}

func TestCapacityOne(t *testing.T) {
	c := New(1)
	c.Remember("tok-a", 1700)
	c.Remember("tok-b", 1800)
	if _, ok := c.Lookup("tok-a"); ok {
		t.Error("tok-a should be gone")
	}
	if v, ok := c.Lookup("tok-b"); !ok || v != 1800 {
		t.Error("tok-b should be cached")
	}
}
