package diet

import "testing"

func TestHas(t *testing.T) {
	p := GlutenFree | NutFree
	if !p.Has(GlutenFree) || !p.Has(NutFree) || !p.Has(GlutenFree|NutFree) {
		t.Fatalf("%d does not hold GlutenFree and NutFree", p)
	}
	if GlutenFree.Has(NutFree) || NutFree.Has(GlutenFree) {
		t.Fatal("GlutenFree and NutFree overlap")
	}
}
