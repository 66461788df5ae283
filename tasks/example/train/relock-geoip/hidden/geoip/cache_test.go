package geoip

import (
	"strings"
	"testing"
)

func TestWarmCountry(t *testing.T) {
	calls := 0
	c := New(func(k string) string { calls++; return strings.ToUpper(k) })
	c.Warm("192.0.2.1", "198.51.100.7")
	if got := c.Country("192.0.2.1"); got != strings.ToUpper("192.0.2.1") {
		t.Fatalf("Country = %q", got)
	}
	c.Country("198.51.100.7")
	if calls != 2 {
		t.Fatalf("lookup ran %d times, want 2", calls)
	}
}
