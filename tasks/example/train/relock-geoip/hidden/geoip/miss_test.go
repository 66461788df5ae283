package geoip

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestCountryMiss(t *testing.T) {
	var calls atomic.Int32
	c := New(func(k string) string { calls.Add(1); return strings.ToUpper(k) })
	done := make(chan string, 1)
	go func() {
		c.Country("192.0.2.1")
		done <- c.Country("192.0.2.1")
	}()
	select {
	case got := <-done:
		if got != strings.ToUpper("192.0.2.1") || calls.Load() != 1 {
			t.Fatalf("Country = %q after %d lookups", got, calls.Load())
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Country of a key not seen before did not return within 2s")
	}
}
