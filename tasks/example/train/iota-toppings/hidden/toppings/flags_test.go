package toppings

import "testing"

func TestString(t *testing.T) {
	for _, c := range []struct {
		p    Toppings
		want string
	}{
		{0, "none"},
		{Cheese, "cheese"},
		{Ham | Mushrooms, "ham+mushrooms"},
		{Basil, "basil"},
		{Cheese | Ham | Mushrooms | Olives | Basil, "cheese+ham+mushrooms+olives+basil"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("String of %d = %q, want %q", c.p, got, c.want)
		}
	}
}

func TestDistinctFlags(t *testing.T) {
	all := []Toppings{Cheese, Ham, Mushrooms, Olives, Basil}
	for i, a := range all {
		if a == 0 {
			t.Errorf("flag %d is the empty set", i)
		}
		for j, b := range all {
			if i != j && a&b != 0 {
				t.Errorf("flags %d and %d overlap", i, j)
			}
		}
	}
	if (Ham | Mushrooms).Has(Olives) {
		t.Error("Ham|Mushrooms holds Olives")
	}
}
