package patients

import (
	"fmt"
	"testing"
)

func TestByUrgencyEqualKeysKeepOrder(t *testing.T) {
	var items []Patient
	for i := 0; i < 50; i++ {
		items = append(items, Patient{Name: fmt.Sprintf("n%03d", i), Urgency: (i * 3) % 4})
	}
	ByUrgency(items)
	for i := 1; i < len(items); i++ {
		a, b := items[i-1], items[i]
		if b.Urgency > a.Urgency {
			t.Fatalf("%v before %v: not sorted by Urgency", a, b)
		}
		if a.Urgency == b.Urgency && a.Name > b.Name {
			t.Fatalf("%v before %v: equal Urgency, but the order changed", a, b)
		}
	}
}
