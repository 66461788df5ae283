package addr

import "testing"

func TestIsIPv4Strict(t *testing.T) {
	for _, s := range []string{"1.2.3.4"} {
		if !IsIPv4(s) {
			t.Errorf("IsIPv4(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"1a2b3c4", "10.0.0.1.5", "10.0.0.1/24", "x10.0.0.1", "1-2-3-4"} {
		if IsIPv4(s) {
			t.Errorf("IsIPv4(%q) = true, want false", s)
		}
	}
}
