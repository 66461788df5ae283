// Package jobwait waits for batch jobs.
package jobwait

import (
	"context"
	"time"
)

// UntilDone calls ready every interval until it returns true, and then
// returns nil. When ctx is done first, it returns ctx.Err().
func UntilDone(ctx context.Context, interval time.Duration, ready func() bool) error {
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
