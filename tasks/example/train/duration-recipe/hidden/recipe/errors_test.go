package recipe

import "testing"

func TestCookTimeErrors(t *testing.T) {
	for _, in := range []string{"h", "12", "3x"} {
		if _, err := CookTime(in); err == nil {
			t.Errorf("CookTime(%q) gave no error", in)
		}
	}
}
