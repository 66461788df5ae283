package tokens

import "testing"

func TestEvictsLeastRecent(t *testing.T) {
	c := New(2)
	c.Remember("tok-a", 1700)
	c.Remember("tok-b", 1800)
	c.Lookup("tok-a")
	c.Remember("tok-c", 1900)
	if _, ok := c.Lookup("tok-b"); ok {
		t.Error("tok-b should have been evicted")
	}
	if v, ok := c.Lookup("tok-a"); !ok || v != 1700 {
		t.Error("tok-a should still be cached")
	}
}
