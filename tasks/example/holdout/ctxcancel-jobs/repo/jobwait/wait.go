// Package jobwait waits for batch jobs.
package jobwait

import (
	"context"
	"time"
)

// UntilDone calls ready every interval until it returns true, and then
// returns nil. When ctx is done first, it returns ctx.Err().
func UntilDone(ctx context.Context, interval time.Duration, ready func() bool) error {
	for !ready() {
		time.Sleep(interval)
	}
	return nil
}
