package addr

import "testing"

func TestIsIPv4(t *testing.T) {
	for _, s := range []string{"10.0.0.1", "192.168.100.254"} {
		if !IsIPv4(s) {
			t.Errorf("IsIPv4(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"10.0.1", "localhost"} {
		if IsIPv4(s) {
			t.Errorf("IsIPv4(%q) = true, want false", s)
		}
	}
}
