package palette

import "testing"

func TestIsHexColor(t *testing.T) {
	for _, s := range []string{"#000000", "#1a2B3c"} {
		if !IsHexColor(s) {
			t.Errorf("IsHexColor(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"#12345", "red", "#ggg000"} {
		if IsHexColor(s) {
			t.Errorf("IsHexColor(%q) = true, want false", s)
		}
	}
}
