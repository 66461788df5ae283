package avatars

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestURLMiss(t *testing.T) {
	var calls atomic.Int32
	c := New(func(k string) string { calls.Add(1); return strings.ToUpper(k) })
	done := make(chan string, 1)
	go func() {
		c.URL("grace")
		done <- c.URL("grace")
	}()
	select {
	case got := <-done:
		if got != strings.ToUpper("grace") || calls.Load() != 1 {
			t.Fatalf("URL = %q after %d lookups", got, calls.Load())
		}
	case <-time.After(2 * time.Second):
		t.Fatal("URL of a key not seen before did not return within 2s")
	}
}
