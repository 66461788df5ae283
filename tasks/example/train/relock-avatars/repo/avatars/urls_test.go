package avatars

import (
	"strings"
	"testing"
)

func TestWarmURL(t *testing.T) {
	calls := 0
	c := New(func(k string) string { calls++; return strings.ToUpper(k) })
	c.Warm("grace", "linus")
	if got := c.URL("grace"); got != strings.ToUpper("grace") {
		t.Fatalf("URL = %q", got)
	}
	c.URL("linus")
	if calls != 2 {
		t.Fatalf("lookup ran %d times, want 2", calls)
	}
}
