package inbox

import (
	"fmt"
	"testing"
)

func TestByDayEqualKeysKeepOrder(t *testing.T) {
	var items []Message
	for i := 0; i < 52; i++ {
		items = append(items, Message{Name: fmt.Sprintf("n%03d", i), Day: (i * 3) % 5})
	}
	ByDay(items)
	for i := 1; i < len(items); i++ {
		a, b := items[i-1], items[i]
		if b.Day < a.Day {
			t.Fatalf("%v before %v: not sorted by Day", a, b)
		}
		if a.Day == b.Day && a.Name > b.Name {
			t.Fatalf("%v before %v: equal Day, but the order changed", a, b)
		}
	}
}
