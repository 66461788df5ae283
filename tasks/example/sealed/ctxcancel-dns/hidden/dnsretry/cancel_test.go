package dnsretry

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestQueryCancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Millisecond)
	defer cancel()
	start := time.Now()
	calls := 0
	err := Query(ctx, 40, 15*time.Millisecond, func() error {
		calls++
		return errors.New("SERVFAIL")
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's error", err)
	}
	if d := time.Since(start); d > 600*time.Millisecond {
		t.Fatalf("Query returned after %v, long after the context ended", d)
	}
	if calls > 7 {
		t.Fatalf("%d calls", calls)
	}
}
