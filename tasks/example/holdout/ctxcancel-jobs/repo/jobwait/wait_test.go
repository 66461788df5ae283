package jobwait

import (
	"context"
	"testing"
	"time"
)

func TestUntilDone(t *testing.T) {
	n := 0
	err := UntilDone(context.Background(), time.Millisecond, func() bool {
		n++
		return n == 5
	})
	if err != nil || n != 5 {
		t.Fatalf("err = %v after %d checks", err, n)
	}
}
