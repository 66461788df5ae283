package diet

import "testing"

func TestString(t *testing.T) {
	for _, c := range []struct {
		p    Labels
		want string
	}{
		{0, "none"},
		{Vegan, "vegan"},
		{GlutenFree | NutFree, "gluten-free+nut-free"},
		{Halal, "halal"},
		{Vegan | GlutenFree | NutFree | Halal, "vegan+gluten-free+nut-free+halal"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("String of %d = %q, want %q", c.p, got, c.want)
		}
	}
}

func TestDistinctFlags(t *testing.T) {
	all := []Labels{Vegan, GlutenFree, NutFree, Halal}
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
	if (GlutenFree | NutFree).Has(Halal) {
		t.Error("GlutenFree|NutFree holds Halal")
	}
}
