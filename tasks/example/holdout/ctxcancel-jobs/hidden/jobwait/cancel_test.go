package jobwait

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestUntilDoneGivesUp(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(60*time.Millisecond, cancel)
	done := make(chan error, 1)
	go func() { done <- UntilDone(ctx, 20*time.Millisecond, func() bool { return false }) }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("UntilDone did not return after its context was cancelled")
	}
}
