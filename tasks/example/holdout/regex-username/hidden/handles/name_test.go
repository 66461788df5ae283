package handles

import "testing"

func TestValidHandle(t *testing.T) {
	for _, s := range []string{"bob", "ana_2024"} {
		if !ValidHandle(s) {
			t.Errorf("ValidHandle(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"al", "Bo", "x!"} {
		if ValidHandle(s) {
			t.Errorf("ValidHandle(%q) = true, want false", s)
		}
	}
}
