package backlog

import (
	"fmt"
	"testing"
)

func TestSortByPriorityEqualKeysKeepOrder(t *testing.T) {
	var items []Task
	for i := 0; i < 48; i++ {
		items = append(items, Task{Name: fmt.Sprintf("n%03d", i), Priority: (i * 7) % 4})
	}
	SortByPriority(items)
	for i := 1; i < len(items); i++ {
		a, b := items[i-1], items[i]
		if b.Priority < a.Priority {
			t.Fatalf("%v before %v: not sorted by Priority", a, b)
		}
		if a.Priority == b.Priority && a.Name > b.Name {
			t.Fatalf("%v before %v: equal Priority, but the order changed", a, b)
		}
	}
}
