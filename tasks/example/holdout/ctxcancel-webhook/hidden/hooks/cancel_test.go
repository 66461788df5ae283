package hooks

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestRetryCancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	calls := 0
	err := Retry(ctx, 40, 20*time.Millisecond, func() error {
		calls++
		return errors.New("connection reset")
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's error", err)
	}
	if d := time.Since(start); d > 600*time.Millisecond {
		t.Fatalf("Retry returned after %v, long after the context ended", d)
	}
	if calls > 6 {
		t.Fatalf("%d calls", calls)
	}
}
