package patients

import "testing"

func TestByUrgency(t *testing.T) {
	items := []Patient{{"b", 2}, {"c", 1}, {"a", 3}}
	ByUrgency(items)
	if items[0].Name != "a" || items[1].Name != "b" || items[2].Name != "c" {
		t.Fatalf("ByUrgency = %v", items)
	}
}
