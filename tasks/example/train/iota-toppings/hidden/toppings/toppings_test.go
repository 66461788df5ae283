package toppings

import "testing"

func TestHas(t *testing.T) {
	p := Ham | Mushrooms
	if !p.Has(Ham) || !p.Has(Mushrooms) || !p.Has(Ham|Mushrooms) {
		t.Fatalf("%d does not hold Ham and Mushrooms", p)
	}
	if Ham.Has(Mushrooms) || Mushrooms.Has(Ham) {
		t.Fatal("Ham and Mushrooms overlap")
	}
}
