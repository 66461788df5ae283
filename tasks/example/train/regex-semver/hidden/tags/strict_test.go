package tags

import "testing"

func TestIsReleaseStrict(t *testing.T) {
	for _, s := range []string{"v0.0.1", "v2.10.3"} {
		if !IsRelease(s) {
			t.Errorf("IsRelease(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"v1x2x3", "release-v1.2.3", "v1.2.3-rc1", "v1.2.3\n", "xv1.2.3"} {
		if IsRelease(s) {
			t.Errorf("IsRelease(%q) = true, want false", s)
		}
	}
}
