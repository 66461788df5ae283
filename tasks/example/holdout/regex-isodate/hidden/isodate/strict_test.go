package isodate

import "testing"

func TestLooksLikeDateStrict(t *testing.T) {
	for _, s := range []string{"2000-02-29"} {
		if !LooksLikeDate(s) {
			t.Errorf("LooksLikeDate(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"2024-01-311", "12024-01-31", "on 2024-01-31", "2024-01-31T10:00"} {
		if LooksLikeDate(s) {
			t.Errorf("LooksLikeDate(%q) = true, want false", s)
		}
	}
}
