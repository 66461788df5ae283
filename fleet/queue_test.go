package fleet

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"ratchet/anchor"
)

// treeJob is a job over two small trees, for tests that need no anchor.
func treeJob(t *testing.T) Job {
	t.Helper()
	snap, task := filepath.Join(t.TempDir(), "snap"), filepath.Join(t.TempDir(), "train", "t1")
	anchor.WriteTree(snap, map[string][]byte{"main.go": []byte("package main\n"), "manifest.toml": []byte("editable = []\n")})
	anchor.WriteTree(task, map[string][]byte{"task.toml": []byte("prompt = \"p\"\ntest = \"true\"\n"), "repo/a.txt": []byte("a\n")})
	hash := func(dir string) string {
		files, err := anchor.ReadTree(dir, true)
		if err != nil {
			t.Fatal(err)
		}
		return anchor.HashOf(files)
	}
	return Job{HarnessHash: hash(snap), Snapshot: snap, TaskID: "t1", Split: "train", TaskDir: task, TaskHash: hash(task),
		Model: "openai:m#000000000000", AnchorBuild: strings.Repeat("a", 64)}
}

// A job whose every delivery is lost (workers that die without a word)
// fails once the queue gives up on it, and says so.
func TestJobLostOnEveryDeliveryFails(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("waits out three ack deadlines of the queue: slow; run without -short")
	}
	f := openFleet(t, startNATS(t))
	job := treeJob(t)
	errc := make(chan error, 1)
	go func() {
		_, err := f.Submit(context.Background(), job, t.TempDir())
		errc <- err
	}()
	for i := range 3 { // take the job and never answer, like a worker killed at once
		msg, err := f.queue.Next(jetstream.FetchMaxWait(10 * time.Second))
		if err != nil {
			t.Fatalf("delivery %d: %v", i+1, err)
		}
		if meta, _ := msg.Metadata(); meta.NumDelivered != uint64(i+1) {
			t.Fatalf("delivery %d counted %d", i+1, meta.NumDelivered)
		}
	}
	// Workers go on asking for jobs; the queue gives this one up (the
	// server decides when a worker asks).
	stop, asked := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(asked)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if msg, err := f.queue.Next(jetstream.FetchMaxWait(time.Second)); err == nil {
				t.Errorf("delivered again after the last delivery: %s", msg.Data())
			}
		}
	}()
	defer func() { close(stop); <-asked }()
	select {
	case err := <-errc:
		if err == nil || !strings.Contains(err.Error(), "delivered 3 times without a result") {
			t.Fatalf("submit: %v", err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("submit still waits after the last delivery was lost")
	}
	if st, _ := settled(t, f); len(st.Failed) != 1 || st.InFlight != 0 || st.Queued != 0 {
		t.Errorf("status = %+v", st)
	}
}

// The snapshot and the task are stored once, by hash, and come back
// verified; a tree that changed since the anchor hashed it is refused.
func TestTreesByHash(t *testing.T) {
	t.Parallel()
	f := openFleet(t, startNATS(t))
	job := treeJob(t)
	ctx := context.Background()
	for range 2 {
		if err := f.putTree(ctx, job.Snapshot, job.HarnessHash); err != nil {
			t.Fatal(err)
		}
	}
	dst := filepath.Join(t.TempDir(), "got")
	if err := f.fetchTree(ctx, job.HarnessHash, dst); err != nil {
		t.Fatal(err)
	}
	if files, _ := anchor.ReadTree(dst, true); anchor.HashOf(files) != job.HarnessHash {
		t.Error("the fetched tree does not hash right")
	}
	anchor.WriteTree(dst, map[string][]byte{"main.go": []byte("package evil\n")})
	if err := f.fetchTree(ctx, job.HarnessHash, dst); err != nil {
		t.Fatal(err)
	}
	if files, _ := anchor.ReadTree(dst, true); anchor.HashOf(files) != job.HarnessHash {
		t.Error("a tree changed on the worker's disk was used")
	}
	anchor.WriteTree(job.TaskDir, map[string][]byte{"repo/a.txt": []byte("changed\n")})
	if err := f.putTree(ctx, job.TaskDir, job.TaskHash); err == nil || !strings.Contains(err.Error(), "changed since the anchor read it") {
		t.Errorf("a changed task was stored: %v", err)
	}
	packed, err := packTree(map[string][]byte{"../x": []byte("x")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := unpackTree(packed); err == nil {
		t.Error("a tree entry outside the tree was accepted")
	}
	objs, _ := f.trees.List(ctx)
	if len(objs) != 1 {
		t.Errorf("%d objects stored; want the snapshot once", len(objs))
	}
}
