package rates

import (
	"strings"
	"testing"
)

func TestWarmRate(t *testing.T) {
	calls := 0
	c := New(func(k string) string { calls++; return strings.ToUpper(k) })
	c.Warm("eur-usd", "gbp-jpy")
	if got := c.Rate("eur-usd"); got != strings.ToUpper("eur-usd") {
		t.Fatalf("Rate = %q", got)
	}
	c.Rate("gbp-jpy")
	if calls != 2 {
		t.Fatalf("lookup ran %d times, want 2", calls)
	}
}
