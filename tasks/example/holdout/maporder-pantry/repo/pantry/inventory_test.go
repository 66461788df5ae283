package pantry

import "testing"

func TestInventory(t *testing.T) {
	if got := Inventory(map[string]int{"rice": 4}); got != "rice: 4\n" {
		t.Fatalf("Inventory = %q", got)
	}
	if got := Inventory(nil); got != "" {
		t.Fatalf("Inventory(nil) = %q", got)
	}
}
