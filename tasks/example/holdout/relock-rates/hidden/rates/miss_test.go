package rates

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestRateMiss(t *testing.T) {
	var calls atomic.Int32
	c := New(func(k string) string { calls.Add(1); return strings.ToUpper(k) })
	done := make(chan string, 1)
	go func() {
		c.Rate("eur-usd")
		done <- c.Rate("eur-usd")
	}()
	select {
	case got := <-done:
		if got != strings.ToUpper("eur-usd") || calls.Load() != 1 {
			t.Fatalf("Rate = %q after %d lookups", got, calls.Load())
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Rate of a key not seen before did not return within 2s")
	}
}
