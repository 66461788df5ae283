package palette

import "testing"

func TestIsHexColorStrict(t *testing.T) {
	for _, s := range []string{"#FFFFFF", "#abcdef"} {
		if !IsHexColor(s) {
			t.Errorf("IsHexColor(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"#1234567", "color:#abcdef", "#abcdef;", "##abcdef"} {
		if IsHexColor(s) {
			t.Errorf("IsHexColor(%q) = true, want false", s)
		}
	}
}
