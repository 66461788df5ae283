package isodate

import "testing"

func TestLooksLikeDate(t *testing.T) {
	for _, s := range []string{"2024-01-31", "1999-12-01"} {
		if !LooksLikeDate(s) {
			t.Errorf("LooksLikeDate(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"24-01-31", "2024/01/31", "today"} {
		if LooksLikeDate(s) {
			t.Errorf("LooksLikeDate(%q) = true, want false", s)
		}
	}
}
