package healthz

import (
	"context"
	"testing"
	"time"
)

func TestWaitHealthy(t *testing.T) {
	n := 0
	err := WaitHealthy(context.Background(), time.Millisecond, func() bool {
		n++
		return n == 4
	})
	if err != nil || n != 4 {
		t.Fatalf("err = %v after %d checks", err, n)
	}
}
