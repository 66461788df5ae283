package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"ratchet/anchor"
	"ratchet/internal/show"
)

// modelID is how the anchor names a frozen model.
var modelID = anchor.ModelID

// Worker takes jobs from the fleet and runs each with its own local anchor.
type Worker struct {
	Name   string    // unique in the fleet; shown by status
	Home   string    // trees, task folders and the local anchor's home (ANCHOR_HOME)
	Anchor string    // the anchor binary to run
	Jobs   int       // jobs at once
	Env    []string  // environment of anchor run: MODEL_* and the rest
	Log    io.Writer // one line per event

	model, build string
	fetchMu      sync.Mutex
	mu           sync.Mutex
	info         WorkerInfo
}

// WorkerInfo is what a worker tells the fleet about itself every few
// seconds; status lists it.
type WorkerInfo struct {
	Name        string   `json:"name"`
	Host        string   `json:"host"`
	Model       string   `json:"model"`
	AnchorBuild string   `json:"anchor_build"`
	Jobs        int      `json:"jobs"`
	Running     []string `json:"running"`
	Done        int      `json:"done"`
	Refused     int      `json:"refused"`
	Failed      int      `json:"failed"`
	Started     string   `json:"started"`
}

var unsafeKey = regexp.MustCompile(`[^-_=a-zA-Z0-9]`)

// Work runs w until ctx ends. A job in progress when ctx ends is handed
// back to the queue at once, its local run killed.
func (f *Fleet) Work(ctx context.Context, w *Worker) error {
	if err := w.prepare(); err != nil {
		return err
	}
	w.logf("worker %s: model %s, anchor build %.12s, %d job(s) at once, ack wait %s, max deliveries %d",
		w.Name, w.model, w.build, w.Jobs, f.Settings.AckWait, f.Settings.MaxDeliver)
	var wg sync.WaitGroup
	wg.Go(func() { f.heartbeat(ctx, w) })
	for range w.Jobs {
		wg.Go(func() {
			for ctx.Err() == nil {
				msg, err := f.queue.Next(jetstream.FetchMaxWait(3 * time.Second))
				if err != nil {
					// An idle queue answers a fetch with a timeout: nothing to say.
					idle := errors.Is(err, jetstream.ErrNoMessages) || errors.Is(err, context.DeadlineExceeded) ||
						errors.Is(err, nats.ErrTimeout)
					if !idle && ctx.Err() == nil {
						w.logf("take a job: %v", err)
						time.Sleep(time.Second)
					}
					continue
				}
				f.handle(ctx, w, msg)
			}
		})
	}
	wg.Go(func() {
		<-ctx.Done()
		w.logf("worker %s: told to stop; a job in progress goes back to the queue", w.Name)
	})
	wg.Wait()
	f.workers.Delete(context.Background(), w.Name)
	w.logf("worker %s: stopped", w.Name)
	return nil
}

// prepare fills in the worker's defaults, its model id and the hash of its
// anchor binary.
func (w *Worker) prepare() error {
	host, _ := os.Hostname()
	if w.Name == "" {
		w.Name = host + "-" + strconv.Itoa(os.Getpid())
	}
	w.Name = unsafeKey.ReplaceAllString(w.Name, "_")
	w.Jobs = max(w.Jobs, 1)
	if w.Log == nil {
		w.Log = os.Stderr
	}
	bin, err := exec.LookPath(w.Anchor)
	if err == nil {
		bin, err = filepath.Abs(bin)
	}
	var b []byte
	if err == nil {
		b, err = os.ReadFile(bin)
	}
	if err != nil {
		return fmt.Errorf("find the anchor binary %q: %v; pass --anchor PATH", w.Anchor, err)
	}
	w.Anchor, w.build = bin, sha(b)
	if w.Home, err = filepath.Abs(w.Home); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(w.Home, "anchor"), 0o755); err != nil {
		return fmt.Errorf("worker home: %w; pass --home DIR", err)
	}
	get := func(k, def string) string {
		for _, kv := range w.Env {
			if v, ok := strings.CutPrefix(kv, k+"="); ok && v != "" {
				return v
			}
		}
		return def
	}
	w.model = modelID(get("MODEL_API", "openai"), get("MODEL_NAME", ""), strings.TrimSpace(get("MODEL_OPTIONS", "")))
	w.info = WorkerInfo{Name: w.Name, Host: host, Model: w.model, AnchorBuild: w.build, Jobs: w.Jobs, Running: []string{},
		Started: time.Now().UTC().Format(time.RFC3339)}
	return nil
}

func (w *Worker) logf(format string, args ...any) {
	fmt.Fprintln(w.Log, time.Now().Format("15:04:05"), show.Line(fmt.Sprintf(format, args...), 2000)) // jobs and results carry agent text
}

// note updates the worker's counters under its lock.
func (w *Worker) note(change func(*WorkerInfo)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	change(&w.info)
}

func (f *Fleet) heartbeat(ctx context.Context, w *Worker) {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		w.mu.Lock()
		b, _ := json.Marshal(w.info)
		w.mu.Unlock()
		f.workers.Put(ctx, w.Name, b)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// handle runs one delivered job to its end: a recorded result (acked), a
// refusal or error (handed back, or failed on the last delivery), or a
// shutdown (handed back at once).
func (f *Fleet) handle(ctx context.Context, w *Worker, msg jetstream.Msg) {
	var job Job
	err := json.Unmarshal(msg.Data(), &job)
	if err == nil {
		err = job.check()
	}
	if err != nil {
		f.giveUp(w, msg, job, fmt.Sprintf("unreadable job: %v", err), true)
		return
	}
	switch {
	case job.Model != w.model:
		f.giveUp(w, msg, job, fmt.Sprintf("refused: the job is for model %s, this worker's MODEL_* settings say %s", job.Model, w.model), false)
		return
	case job.AnchorBuild != w.build:
		f.giveUp(w, msg, job, fmt.Sprintf("refused: the job is for anchor build %.12s, this worker runs %.12s (%s); install the coordinator's anchor", job.AnchorBuild, w.build, w.Anchor), false)
		return
	}
	label := fmt.Sprintf("%s/%s#%d", job.Split, job.TaskID, job.Repeat)
	w.logf("run %s (harness %.12s)", label, job.HarnessHash)
	w.note(func(i *WorkerInfo) { i.Running = append(i.Running, label) })
	defer w.note(func(i *WorkerInfo) {
		if k := slices.Index(i.Running, label); k >= 0 {
			i.Running = append(i.Running[:k], i.Running[k+1:]...)
		}
	})

	// In-progress acks keep the job ours while it runs.
	alive, stop := context.WithCancel(ctx)
	go func() {
		t := time.NewTicker(max(f.Settings.AckWait/3, 100*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-alive.Done():
				return
			case <-t.C:
				msg.InProgress()
			}
		}
	}()
	res, err := w.run(alive, f, job)
	stop()
	switch {
	case ctx.Err() != nil:
		msg.Nak()
		w.logf("stopping: %s handed back", label)
		return
	case err != nil:
		f.giveUp(w, msg, job, err.Error(), false)
		return
	}
	key := job.Key()
	b, _ := json.Marshal(res)
	if _, err := f.results.Create(context.Background(), "result."+key, b); errors.Is(err, jetstream.ErrKeyExists) {
		for _, o := range []string{res.TraceObject, res.ReportObject} {
			if o != "" {
				f.trees.Delete(context.Background(), o)
			}
		}
		w.logf("%s: already recorded by another worker; keeping that result", label)
	} else if err != nil {
		f.giveUp(w, msg, job, "record the result: "+err.Error(), false)
		return
	}
	// The result is recorded first, so a submitter may see it a moment
	// before the queue counts the job done; a lost ack only redelivers a job
	// whose result is already kept.
	actx, cancel := context.WithTimeout(context.Background(), f.Settings.AckWait)
	if err := msg.DoubleAck(actx); err != nil {
		w.logf("%s: acknowledge: %v (the recorded result stands)", label, err)
	}
	cancel()
	w.note(func(i *WorkerInfo) { i.Done++ })
	w.logf("done %s", label)
}

// giveUp hands a job back with a reason, or, on its last delivery (or when
// final), ends it with a failure that the submitter reports.
func (f *Fleet) giveUp(w *Worker, msg jetstream.Msg, job Job, reason string, final bool) {
	ctx := context.Background()
	key := job.Key()
	b, _ := json.Marshal(Failure{Reason: reason, Worker: w.Name})
	meta, err := msg.Metadata()
	if err != nil || f.Settings.MaxDeliver > 0 && meta.NumDelivered >= uint64(f.Settings.MaxDeliver) {
		final = true
	}
	if strings.HasPrefix(reason, "refused") {
		w.note(func(i *WorkerInfo) { i.Refused++ })
		f.results.Put(ctx, "refused."+key, b)
	} else {
		w.note(func(i *WorkerInfo) { i.Failed++ })
	}
	w.logf("%s/%s#%d: %s", job.Split, job.TaskID, job.Repeat, reason)
	if final {
		f.results.Put(ctx, "failed."+key, b)
		msg.TermWithReason(reason)
		return
	}
	// Wait before the next delivery, so that another worker may take it.
	msg.NakWithDelay(f.Settings.AckWait)
}

// run fetches the job's trees, runs the local anchor on them and stores the
// trace. An error here is the worker's (infrastructure), never a score.
func (w *Worker) run(ctx context.Context, f *Fleet, job Job) (Result, error) {
	snap := filepath.Join(w.Home, "trees", job.HarnessHash)
	task := filepath.Join(w.Home, "tasks", job.TaskHash, job.Split, job.TaskID)
	w.fetchMu.Lock()
	err := errors.Join(f.fetchTree(ctx, job.HarnessHash, snap), f.fetchTree(ctx, job.TaskHash, task))
	w.fetchMu.Unlock()
	if err != nil {
		return Result{}, err
	}
	w.logf("fetched %s/%s#%d", job.Split, job.TaskID, job.Repeat)
	args := []string{"run", "--harness", snap, "--task", task, "--json"}
	if job.Budget > 0 {
		args = append(args, "--budget", strconv.FormatInt(job.Budget, 10))
	}
	if job.Memory > 0 {
		args = append(args, "--memory", strconv.FormatInt(job.Memory, 10))
	}
	if job.Repeat > 0 {
		args = append(args, "--repeat", strconv.Itoa(job.Repeat))
	}
	if job.Force {
		args = append(args, "--force")
	}
	cmd := exec.CommandContext(ctx, w.Anchor, args...)
	// The run is local: a worker on the coordinator's machine must not hand
	// it back to the fleet through an ANCHOR_RUNNER it inherited.
	cmd.Env = append(slices.Clone(w.Env), "ANCHOR_HOME="+filepath.Join(w.Home, "anchor"), "ANCHOR_RUNNER=")
	// A stopped or killed worker takes its run along, with SIGTERM: the
	// anchor then removes its sandboxes and their mounts itself.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = time.Minute
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return Result{}, fmt.Errorf("anchor run: %v: %s", err, lastLine(stderr.String()))
	}
	var run struct {
		ID          string         `json:"id"`
		HarnessHash string         `json:"harness_hash"`
		TracePath   string         `json:"trace_path"`
		Outcome     anchor.Outcome `json:"outcome"`
		Error       string         `json:"error"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &run); err != nil {
		return Result{}, fmt.Errorf("anchor run printed no run record: %v", err)
	}
	switch {
	case run.HarnessHash != job.HarnessHash:
		return Result{}, fmt.Errorf("the local anchor ran harness %.12s for a job of %.12s", run.HarnessHash, job.HarnessHash)
	case run.Outcome == anchor.OutcomeInfra: // this machine's failure: another worker may do better
		return Result{}, fmt.Errorf("anchor run failed for the machine's reasons: %s", run.Error)
	}
	res := Result{Run: json.RawMessage(bytes.TrimSpace(stdout.Bytes())), Worker: w.Name}
	// The trace (none when the harness never ran) and the scoring's report
	// (none when nothing was scored), stored for the submitter to fetch.
	var failed error
	store := func(what, path string) (object, sum string) {
		b, rerr := os.ReadFile(path)
		switch {
		case errors.Is(rerr, os.ErrNotExist) || failed != nil:
		case rerr != nil:
			failed = fmt.Errorf("read the %s: %w", what, rerr)
		default:
			object, sum = what+"-"+job.Key()+"-"+run.ID, sha(b)
			if _, perr := f.trees.PutBytes(ctx, object, b); perr != nil {
				failed = fmt.Errorf("store the %s: %w", what, perr)
			}
		}
		return object, sum
	}
	res.TraceObject, res.TraceSHA256 = store("trace", run.TracePath)
	res.ReportObject, res.ReportSHA256 = store("report", filepath.Join(w.Home, "anchor", "reports", run.ID+".json.gz"))
	if failed != nil {
		return Result{}, failed
	}
	return res, nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	return s[strings.LastIndex(s, "\n")+1:]
}
