// Package hooks retries webhook calls that fail for a while.
package hooks

import (
	"context"
	"time"
)

// Retry calls fn until it returns nil, at most attempts times, waiting
// delay between calls, and returns fn's last error. When ctx is done it
// stops at once, also in the middle of a wait, and returns ctx.Err().
func Retry(ctx context.Context, attempts int, delay time.Duration, fn func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(); err == nil {
			return nil
		}
		if i == attempts-1 {
			break
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return err
}
