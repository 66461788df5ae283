// Package lockwait waits for a lock file to be released.
package lockwait

import (
	"context"
	"time"
)

// AwaitRelease calls ready every interval until it returns true, and then
// returns nil. When ctx is done first, it returns ctx.Err().
func AwaitRelease(ctx context.Context, interval time.Duration, ready func() bool) error {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for !ready() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return nil
}
