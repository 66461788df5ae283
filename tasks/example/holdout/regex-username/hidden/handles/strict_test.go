package handles

import "testing"

func TestValidHandleStrict(t *testing.T) {
	for _, s := range []string{"zed_01", "abcdefghijklmnop"} {
		if !ValidHandle(s) {
			t.Errorf("ValidHandle(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"Bob_smith", "ana-maria", "abcdefghijklmnopq", "_bob", "bob!", "9lives"} {
		if ValidHandle(s) {
			t.Errorf("ValidHandle(%q) = true, want false", s)
		}
	}
}
