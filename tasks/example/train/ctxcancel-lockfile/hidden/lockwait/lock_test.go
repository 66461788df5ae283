package lockwait

import (
	"context"
	"testing"
	"time"
)

func TestAwaitRelease(t *testing.T) {
	n := 0
	err := AwaitRelease(context.Background(), time.Millisecond, func() bool {
		n++
		return n == 3
	})
	if err != nil || n != 3 {
		t.Fatalf("err = %v after %d checks", err, n)
	}
}
