package upload

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestWithRetryCancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Millisecond)
	defer cancel()
	start := time.Now()
	calls := 0
	err := WithRetry(ctx, 40, 25*time.Millisecond, func() error {
		calls++
		return errors.New("503 from the bucket")
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's error", err)
	}
	if d := time.Since(start); d > 600*time.Millisecond {
		t.Fatalf("WithRetry returned after %v, long after the context ended", d)
	}
	if calls > 6 {
		t.Fatalf("%d calls", calls)
	}
}
