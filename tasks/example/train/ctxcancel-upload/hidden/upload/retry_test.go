package upload

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestWithRetry(t *testing.T) {
	calls := 0
	err := WithRetry(context.Background(), 5, time.Millisecond, func() error {
		calls++
		if calls < 3 {
			return errors.New("503 from the bucket")
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Fatalf("err = %v after %d calls; want nil after 3", err, calls)
	}
	boom := errors.New("503 from the bucket")
	if err := WithRetry(context.Background(), 2, time.Millisecond, func() error { return boom }); err != boom {
		t.Fatalf("err = %v, want the last error", err)
	}
}
