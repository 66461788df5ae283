package errorlog

import "testing"

func TestDigest(t *testing.T) {
	if got := Digest(map[string]int{"E_TIMEOUT": 4}); got != "E_TIMEOUT: 4\n" {
		t.Fatalf("Digest = %q", got)
	}
	if got := Digest(nil); got != "" {
		t.Fatalf("Digest(nil) = %q", got)
	}
}
