package ticketid

import "testing"

func TestIsKeyStrict(t *testing.T) {
	for _, s := range []string{"WEB-100", "OPS-7"} {
		if !IsKey(s) {
			t.Errorf("IsKey(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"see CORE-42", "CORE-42a", "CORE-42-3", "xCORE-42"} {
		if IsKey(s) {
			t.Errorf("IsKey(%q) = true, want false", s)
		}
	}
}
