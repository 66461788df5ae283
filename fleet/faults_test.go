package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fixture is a server, a slow scripted model, a one-task suite, a snapshot
// and an anchor home whose build caches seed the workers.
type fixture struct {
	url, snap, tasks, seed string
	env                    []string
	f                      *Fleet
}

func newFixture(t *testing.T, delay time.Duration, ids ...string) *fixture {
	if testing.Short() {
		t.Skip("runs nats-server, workers, anchors and sandboxes")
	}
	x := &fixture{url: startNATS(t), tasks: suite(t, map[string][]string{"train": ids})}
	m := startModel(t, delay)
	x.env = modelEnv(m, "scripted")
	x.snap = snapshot(t, x.env)
	x.seed = warmHome(t)
	x.f = openFleet(t, x.url)
	return x
}

func (x *fixture) job(t *testing.T, id string) Job {
	return jobFor(t, x.snap, filepath.Join(x.tasks, "train", id), "scripted")
}

type submitted struct {
	run    map[string]any
	stderr string
	err    error
}

func (x *fixture) submitAsync(t *testing.T, job Job) chan submitted {
	done := make(chan submitted, 1)
	go func() {
		run, stderr, err := submit(t, x.url, job, t.TempDir())
		done <- submitted{run, stderr, err}
	}()
	return done
}

func (x *fixture) result(t *testing.T, job Job) Result {
	t.Helper()
	e, err := x.f.results.Get(context.Background(), "result."+job.Key())
	if err != nil {
		t.Fatalf("no recorded result: %v", err)
	}
	var r Result
	json.Unmarshal(e.Value(), &r)
	return r
}

// A worker killed in the middle of a run: the queue redelivers the job
// once the ack wait passes, and another worker finishes it.
func TestKilledWorkerJobFinishedByAnother(t *testing.T) {
	t.Parallel()
	x := newFixture(t, 2*time.Second, "fix-k")
	job := x.job(t, "fix-k")
	a, alog := startWorker(t, x.url, "doomed", x.env, x.seed)
	done := x.submitAsync(t, job)
	alog.waitFor(t, "run train/fix-k", time.Minute)
	time.Sleep(time.Second) // the model is answering
	a.Process.Kill()
	a.Wait()
	_, blog := startWorker(t, x.url, "rescuer", x.env, x.seed)
	s := <-done
	if s.err != nil {
		t.Fatalf("submit: %v: %s", s.err, s.stderr)
	}
	blog.waitFor(t, "done train/fix-k", 2*time.Minute) // logged after the ack, which follows the result
	if r := x.result(t, job); r.Worker != "rescuer" || s.run["score"] != 1.0 {
		t.Errorf("recorded by %s with score %v; want rescuer, 1", r.Worker, s.run["score"])
	}
	if strings.Contains(alog.String(), "done ") {
		t.Error("the killed worker finished the job")
	}
}

// A worker with another model refuses the job; once every delivery is
// refused the submit fails with the reason, and a right worker then runs it.
func TestOtherModelRefusedVisibly(t *testing.T) {
	t.Parallel()
	x := newFixture(t, 0, "fix-r")
	job := x.job(t, "fix-r")
	other := append(x.env[:len(x.env):len(x.env)], "MODEL_NAME=other")
	o, olog := startWorker(t, x.url, "other", other, x.seed)
	start := time.Now()
	s := <-x.submitAsync(t, job)
	if s.err == nil {
		t.Fatalf("a job for %s ran on a worker of another model: %v", job.Model, s.run)
	}
	line := strings.TrimSpace(s.stderr)
	if strings.Count(line, "\n") != 0 || !strings.Contains(line, "refused") || !strings.Contains(line, job.Model) ||
		!strings.Contains(line, modelID("openai", "other", "")) || !strings.Contains(line, "worker other") {
		t.Errorf("stderr = %q; want one line naming both models and the worker", s.stderr)
	}
	t.Logf("failed after %s: %s", time.Since(start).Round(time.Millisecond), line)
	if n := strings.Count(olog.String(), "refused"); n != 3 {
		t.Errorf("refused %d times; want 3 (max deliveries)", n)
	}
	st, err := settled(t, x.f)
	if err != nil || len(st.Failed) != 1 || !strings.Contains(st.Failed[0], "refused") || st.Queued != 0 || st.InFlight != 0 {
		t.Errorf("status = %+v, %v", st, err)
	}

	cmd := exec.Command(filepath.Join(bin, "ratchet"), "fleet", "status", "--nats", x.url)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "failed: ") ||
		!strings.Contains(string(out), "openai:other#") || !strings.Contains(string(out), "0 waiting, 0 in flight") {
		t.Errorf("ratchet fleet status: %v\n%s", err, out)
	}

	// The anchor retries: with a worker of the right model the job runs.
	o.Process.Signal(syscall.SIGTERM)
	if err := o.Wait(); err != nil {
		t.Errorf("worker stopped with SIGTERM: %v", err)
	}
	startWorker(t, x.url, "right", x.env, x.seed)
	s = <-x.submitAsync(t, job)
	if s.err != nil || s.run["score"] != 1.0 {
		t.Fatalf("retry: %v %v: %s", s.run, s.err, s.stderr)
	}
	if r := x.result(t, job); r.Worker != "right" {
		t.Errorf("recorded by %s", r.Worker)
	}
	if st, _ := settled(t, x.f); len(st.Failed) != 0 || st.Results != 1 {
		t.Errorf("after the retry: %+v", st)
	}
}

// A worker that stalls past the ack wait loses its job to another; when it
// wakes and finishes too, the result is recorded once: the first one.
func TestDuplicateDeliveryRecordedOnce(t *testing.T) {
	t.Parallel()
	x := newFixture(t, 2*time.Second, "fix-d")
	job := x.job(t, "fix-d")
	a, alog := startWorker(t, x.url, "stalled", x.env, x.seed)
	done := x.submitAsync(t, job)
	// Stopped only once its trees are fetched (a fetch cut short by the stop
	// times out, and the job is handed back unfinished), its run goes on
	// and its in-progress acks stop.
	alog.waitFor(t, "fetched train/fix-d", time.Minute)
	a.Process.Signal(syscall.SIGSTOP)
	_, blog := startWorker(t, x.url, "second", x.env, x.seed)
	s := <-done
	if s.err != nil {
		t.Fatalf("submit: %v: %s", s.err, s.stderr)
	}
	blog.waitFor(t, "done train/fix-d", 30*time.Second)
	first := x.result(t, job)
	a.Process.Signal(syscall.SIGCONT)
	alog.waitFor(t, "already recorded", 3*time.Minute)

	ctx := context.Background()
	if h, err := x.f.results.History(ctx, "result."+job.Key()); err != nil || len(h) != 1 {
		t.Errorf("result written %d times (%v); want once", len(h), err)
	}
	if r := x.result(t, job); string(r.Run) != string(first.Run) || r.Worker != "second" {
		t.Errorf("the late worker replaced the result: %s by %s", r.Run, r.Worker)
	}
	objs, _ := x.f.trees.List(ctx)
	traces := 0
	for _, o := range objs {
		if strings.HasPrefix(o.Name, "trace-"+job.Key()) {
			traces++
		}
	}
	if traces != 1 {
		t.Errorf("%d traces kept for the job; want 1", traces)
	}
	again, stderr, err := submit(t, x.url, job, t.TempDir())
	if err != nil || again["id"] != s.run["id"] {
		t.Errorf("submit again: %v (want run %v), %v %s", again["id"], s.run["id"], err, stderr)
	}
}

// A worker whose model server is down fails the run for the machine's
// reasons: the job is handed back, never recorded as a score, and after the
// last delivery the submit fails with the reason.
func TestInfraFailureIsNotAResult(t *testing.T) {
	t.Parallel()
	x := newFixture(t, 0, "fix-i")
	job := x.job(t, "fix-i")
	down := append(x.env[:len(x.env):len(x.env)], "MODEL_URL=http://127.0.0.1:1")
	_, log := startWorker(t, x.url, "cut-off", down, x.seed)
	s := <-x.submitAsync(t, job)
	if s.err == nil || !strings.Contains(s.stderr, "model server unreachable") || strings.Count(strings.TrimSpace(s.stderr), "\n") != 0 {
		t.Fatalf("submit: %v %v: %q", s.run, s.err, s.stderr)
	}
	if n := strings.Count(log.String(), "fix-i#0: anchor run"); n != 3 {
		t.Errorf("failed %d times; want 3 (max deliveries)", n)
	}
	if _, err := x.f.results.Get(context.Background(), "result."+job.Key()); err == nil {
		t.Error("an infrastructure failure was recorded as a result")
	}
}

// A coordinator killed while its job runs, started again, finds the job on
// the queue (the same message id) and waits for the same run: the job runs
// once.
func TestRestartedCoordinatorReattaches(t *testing.T) {
	t.Parallel()
	x := newFixture(t, 2*time.Second, "fix-c")
	job := x.job(t, "fix-c")
	_, log := startWorker(t, x.url, "w", x.env, x.seed)
	b, _ := json.Marshal(job)
	first := exec.Command(filepath.Join(bin, "ratchet"), "fleet", "submit", "--nats", x.url)
	first.Stdin = bytes.NewReader(b)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	log.waitFor(t, "run train/fix-c", time.Minute)
	first.Process.Kill()
	first.Wait()
	s := <-x.submitAsync(t, job)
	if s.err != nil || s.run["score"] != 1.0 {
		t.Fatalf("submit again: %v %v: %s", s.run, s.err, s.stderr)
	}
	info, err := x.f.jobs.Info(context.Background())
	if err != nil || info.State.LastSeq != 1 || strings.Count(log.String(), "run train/fix-c") != 1 {
		t.Errorf("queue last seq %d (%v); worker log:\n%s", info.State.LastSeq, err, log.String())
	}
}

// A worker stopped with SIGTERM mid-run kills its run, hands the job back
// and exits cleanly; another worker runs the job.
func TestStoppedWorkerHandsJobBack(t *testing.T) {
	t.Parallel()
	x := newFixture(t, 2*time.Second, "fix-s")
	job := x.job(t, "fix-s")
	a, alog := startWorker(t, x.url, "leaving", x.env, x.seed)
	done := x.submitAsync(t, job)
	alog.waitFor(t, "run train/fix-s", time.Minute)
	a.Process.Signal(syscall.SIGTERM)
	if err := a.Wait(); err != nil || !strings.Contains(alog.String(), "handed back") {
		t.Fatalf("worker exit %v; log:\n%s", err, alog.String())
	}
	startWorker(t, x.url, "staying", x.env, x.seed)
	if s := <-done; s.err != nil || x.result(t, job).Worker != "staying" {
		t.Fatalf("submit: %v %v: %s", s.run, s.err, s.stderr)
	}
}

// A job from another anchor build is refused too: the judge must be the
// same program on every machine.
func TestOtherAnchorBuildRefused(t *testing.T) {
	t.Parallel()
	x := newFixture(t, 0, "fix-b")
	job := x.job(t, "fix-b")
	job.AnchorBuild = strings.Repeat("0", 64)
	_, log := startWorker(t, x.url, "w", x.env, x.seed)
	s := <-x.submitAsync(t, job)
	if s.err == nil || !strings.Contains(s.stderr, "refused: the job is for anchor build 000000000000") {
		t.Fatalf("submit: %v %v: %q", s.run, s.err, s.stderr)
	}
	if strings.Contains(log.String(), "run train/") {
		t.Error("the worker ran a job of another anchor build")
	}
}
