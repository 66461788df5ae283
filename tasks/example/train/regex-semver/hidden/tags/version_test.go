package tags

import "testing"

func TestIsRelease(t *testing.T) {
	for _, s := range []string{"v1.0.0", "v10.2.33"} {
		if !IsRelease(s) {
			t.Errorf("IsRelease(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"1.0.0", "v1.0", "version"} {
		if IsRelease(s) {
			t.Errorf("IsRelease(%q) = true, want false", s)
		}
	}
}
