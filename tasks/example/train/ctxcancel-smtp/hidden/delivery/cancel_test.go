package delivery

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestDeliverCancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Millisecond)
	defer cancel()
	start := time.Now()
	calls := 0
	err := Deliver(ctx, 40, 30*time.Millisecond, func() error {
		calls++
		return errors.New("421 try again later")
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's error", err)
	}
	if d := time.Since(start); d > 600*time.Millisecond {
		t.Fatalf("Deliver returned after %v, long after the context ended", d)
	}
	if calls > 4 {
		t.Fatalf("%d calls", calls)
	}
}
