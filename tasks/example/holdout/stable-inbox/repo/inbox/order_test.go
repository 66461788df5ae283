package inbox

import "testing"

func TestByDay(t *testing.T) {
	items := []Message{{"b", 2}, {"c", 3}, {"a", 1}}
	ByDay(items)
	if items[0].Name != "a" || items[1].Name != "b" || items[2].Name != "c" {
		t.Fatalf("ByDay = %v", items)
	}
}
