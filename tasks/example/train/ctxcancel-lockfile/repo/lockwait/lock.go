// Package lockwait waits for a lock file to be released.
package lockwait

import (
	"context"
	"time"
)

// AwaitRelease calls ready every interval until it returns true, and then
// returns nil. When ctx is done first, it returns ctx.Err().
func AwaitRelease(ctx context.Context, interval time.Duration, ready func() bool) error {
	for !ready() {
		time.Sleep(interval)
	}
	return nil
}
