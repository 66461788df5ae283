package ticketid

import "testing"

func TestIsKey(t *testing.T) {
	for _, s := range []string{"CORE-42", "A-1"} {
		if !IsKey(s) {
			t.Errorf("IsKey(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"core-42", "CORE42", "-42"} {
		if IsKey(s) {
			t.Errorf("IsKey(%q) = true, want false", s)
		}
	}
}
