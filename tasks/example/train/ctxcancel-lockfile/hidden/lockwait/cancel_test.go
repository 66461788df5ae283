package lockwait

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestAwaitReleaseGivesUp(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(40*time.Millisecond, cancel)
	done := make(chan error, 1)
	go func() { done <- AwaitRelease(ctx, 15*time.Millisecond, func() bool { return false }) }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("AwaitRelease did not return after its context was cancelled")
	}
}
