package fleet

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// TestIdleWorkerIsQuiet: a worker waiting on an empty queue logs nothing
// after its start line (an idle fetch ends in a timeout, which is no
// news), and says when it is told to stop and when it has stopped.
func TestIdleWorkerIsQuiet(t *testing.T) {
	if testing.Short() {
		t.Skip("waits on an empty queue for three fetches")
	}
	url := startNATS(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f, err := Open(ctx, url, "idle-test", Settings{AckWait: time.Minute, MaxDeliver: 3}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	self, _ := os.Executable()
	var log lines
	w := &Worker{Name: "idle", Home: t.TempDir(), Anchor: self, Jobs: 2, Log: &log, Env: []string{"MODEL_NAME=m"}}
	done := make(chan error, 1)
	go func() { done <- f.Work(ctx, w) }()
	time.Sleep(10 * time.Second) // three fetches of 3 s each, on each of two slots
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the worker did not stop within 30 s of being told to")
	}
	got := strings.TrimSpace(log.String())
	events := strings.Split(got, "\n")
	if len(events) != 3 || !strings.Contains(events[0], "worker idle: model") ||
		!strings.Contains(events[1], "told to stop") || !strings.Contains(events[2], "worker idle: stopped") {
		t.Errorf("an idle worker's log, want its start, told to stop and stopped:\n%s", got)
	}
}
