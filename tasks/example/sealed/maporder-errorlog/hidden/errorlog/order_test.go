package errorlog

import "testing"

func TestDigestOrder(t *testing.T) {
	counts := map[string]int{"E_TIMEOUT": 1, "E_REFUSED": 3, "E_RESET": 5, "E_DNS": 2, "E_TLS": 4, "E_AUTH": 1, "E_QUOTA": 3, "E_DISK": 5, "E_OOM": 2, "E_PARSE": 4, "E_SCHEMA": 1, "E_LOCK": 3, "E_CONFLICT": 5, "E_GONE": 2, "E_RANGE": 4, "E_PIPE": 1, "E_PERM": 3, "E_BUSY": 5, "E_AGAIN": 2, "E_LOOP": 4}
	want := "E_BUSY: 5\nE_CONFLICT: 5\nE_DISK: 5\nE_RESET: 5\nE_LOOP: 4\nE_PARSE: 4\nE_RANGE: 4\nE_TLS: 4\nE_LOCK: 3\nE_PERM: 3\nE_QUOTA: 3\nE_REFUSED: 3\nE_AGAIN: 2\nE_DNS: 2\nE_GONE: 2\nE_OOM: 2\nE_AUTH: 1\nE_PIPE: 1\nE_SCHEMA: 1\nE_TIMEOUT: 1\n"
	for range 3 {
		if got := Digest(counts); got != want {
			t.Fatalf("Digest =\n%s\nwant\n%s", got, want)
		}
	}
}
