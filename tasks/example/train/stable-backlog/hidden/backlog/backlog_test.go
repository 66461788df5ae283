package backlog

import "testing"

func TestSortByPriority(t *testing.T) {
	items := []Task{{"b", 2}, {"c", 3}, {"a", 1}}
	SortByPriority(items)
	if items[0].Name != "a" || items[1].Name != "b" || items[2].Name != "c" {
		t.Fatalf("SortByPriority = %v", items)
	}
}
