package repeatdays

import "testing"

func TestHas(t *testing.T) {
	p := Tue | Wed
	if !p.Has(Tue) || !p.Has(Wed) || !p.Has(Tue|Wed) {
		t.Fatalf("%d does not hold Tue and Wed", p)
	}
	if Tue.Has(Wed) || Wed.Has(Tue) {
		t.Fatal("Tue and Wed overlap")
	}
}
