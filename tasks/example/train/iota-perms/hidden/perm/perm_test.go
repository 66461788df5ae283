package perm

import "testing"

func TestHas(t *testing.T) {
	p := Write | Share
	if !p.Has(Write) || !p.Has(Share) || !p.Has(Write|Share) {
		t.Fatalf("%d does not hold Write and Share", p)
	}
	if Write.Has(Share) || Share.Has(Write) {
		t.Fatal("Write and Share overlap")
	}
}
