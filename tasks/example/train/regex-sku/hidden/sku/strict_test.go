package sku

import "testing"

func TestValidStrict(t *testing.T) {
	for _, s := range []string{"QRS-9876"} {
		if !Valid(s) {
			t.Errorf("Valid(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"ABC-12345", "XABC-1234", "ABC-1234 ", "id ABC-1234"} {
		if Valid(s) {
			t.Errorf("Valid(%q) = true, want false", s)
		}
	}
}
