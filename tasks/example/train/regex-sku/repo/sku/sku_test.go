package sku

import "testing"

func TestValid(t *testing.T) {
	for _, s := range []string{"ABC-1234", "XYZ-0000"} {
		if !Valid(s) {
			t.Errorf("Valid(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"AB-1234", "abc-1234", "ABC1234"} {
		if Valid(s) {
			t.Errorf("Valid(%q) = true, want false", s)
		}
	}
}
