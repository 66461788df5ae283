package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"ratchet/anchor"
)

// Submit runs job on the fleet and returns what the anchor reads from its
// runner: the run record as the worker's anchor printed it, with "trace"
// naming a copy of the run's trace in traceDir instead of the worker's
// trace_path. It stores the snapshot and the task folder first (once per
// hash), enqueues the job, and waits until a worker records a result or the
// job fails. A result already recorded for the job (a coordinator that died
// and came back) is returned without running anything, unless it failed
// for the machine's reasons or job.Force is set. A job no worker could run
// returns an error with the last worker's reason.
func (f *Fleet) Submit(ctx context.Context, job Job, traceDir string) ([]byte, error) {
	if err := job.check(); err != nil {
		return nil, err
	}
	key := job.Key()
	resultKey, failedKey := "result."+key, "failed."+key
	msgID := key
	if e, err := f.results.Get(ctx, resultKey); err == nil {
		if !job.Force && reusable(e.Value()) {
			return f.deliver(ctx, job, e.Value(), traceDir)
		}
		msgID = key + "." + strconv.FormatUint(e.Revision(), 10) // not a duplicate of the earlier job
		if err := f.results.Delete(ctx, resultKey); err != nil {
			return nil, err
		}
	}
	if e, err := f.results.Get(ctx, failedKey); err == nil {
		msgID = key + "." + strconv.FormatUint(e.Revision(), 10)
		if err := f.results.Delete(ctx, failedKey); err != nil {
			return nil, err
		}
	}
	if err := f.putTree(ctx, job.Snapshot, job.HarnessHash); err != nil {
		return nil, fmt.Errorf("store the snapshot: %w", err)
	}
	if err := f.putTree(ctx, job.TaskDir, job.TaskHash); err != nil {
		return nil, fmt.Errorf("store the task: %w", err)
	}

	// Listen before publishing, so that nothing is missed.
	watch, err := f.results.WatchFiltered(ctx, []string{resultKey, failedKey})
	if err != nil {
		return nil, err
	}
	defer watch.Stop()
	advisories := make(chan *nats.Msg, 64)
	sub, err := f.nc.ChanSubscribe("$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES."+jobStream+"."+consumerName, advisories)
	if err != nil {
		return nil, err
	}
	defer sub.Unsubscribe()
	body, _ := json.Marshal(job)
	ack, err := f.js.Publish(ctx, jobSubject, body, jetstream.WithMsgID(msgID))
	if err != nil {
		return nil, fmt.Errorf("enqueue the job: %w", err)
	}

	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case e, ok := <-watch.Updates():
			switch {
			case !ok:
				return nil, fmt.Errorf("lost the watch on the results of job %s/%s; submit it again to re-attach", job.Split, job.TaskID)
			case e == nil || e.Operation() != jetstream.KeyValuePut:
			case e.Key() == resultKey:
				return f.deliver(ctx, job, e.Value(), traceDir)
			default:
				var fail Failure
				json.Unmarshal(e.Value(), &fail)
				f.jobs.DeleteMsg(ctx, ack.Sequence) // usually gone already
				return nil, jobError(job, fail)
			}
		case m := <-advisories:
			var adv struct {
				StreamSeq  uint64 `json:"stream_seq"`
				Deliveries uint64 `json:"deliveries"`
			}
			if json.Unmarshal(m.Data, &adv) != nil || adv.StreamSeq != ack.Sequence {
				continue
			}
			fail := Failure{Reason: fmt.Sprintf("delivered %d times without a result (workers stopped or lost)", adv.Deliveries)}
			if e, err := f.results.Get(ctx, "refused."+key); err == nil {
				var last Failure
				json.Unmarshal(e.Value(), &last)
				fail.Reason += fmt.Sprintf("; last refusal by %s: %s", last.Worker, last.Reason)
			}
			b, _ := json.Marshal(fail)
			f.results.Create(ctx, failedKey, b) // a worker's own failure, if any, stays
			f.jobs.DeleteMsg(ctx, ack.Sequence)
			return nil, jobError(job, fail)
		}
	}
}

func jobError(job Job, fail Failure) error {
	by := ""
	if fail.Worker != "" {
		by = " on worker " + fail.Worker
	}
	return fmt.Errorf("job %s/%s repeat %d failed%s: %s", job.Split, job.TaskID, job.Repeat, by, fail.Reason)
}

// reusable says whether a recorded result may answer a job again: as in
// the anchor's run cache, any run but one that failed for the machine's
// reasons (outcome infra; for an anchor without outcomes, any error).
func reusable(value []byte) bool {
	var r struct {
		Run struct {
			Outcome *anchor.Outcome `json:"outcome"`
			Error   string          `json:"error"`
		} `json:"run"`
	}
	switch {
	case json.Unmarshal(value, &r) != nil:
		return false
	case r.Run.Outcome == nil:
		return r.Run.Error == ""
	}
	return *r.Run.Outcome != anchor.OutcomeInfra
}

// deliver turns a recorded result into the runner's answer: it checks that
// the run is the job's, fetches the trace into traceDir and checks its hash.
func (f *Fleet) deliver(ctx context.Context, job Job, value []byte, traceDir string) ([]byte, error) {
	var res Result
	var run map[string]json.RawMessage
	if err := json.Unmarshal(value, &res); err != nil {
		return nil, fmt.Errorf("result of job %s: %w", job.Key(), err)
	}
	if err := json.Unmarshal(res.Run, &run); err != nil {
		return nil, fmt.Errorf("run record of job %s from %s: %w", job.Key(), res.Worker, err)
	}
	var got Job
	var id string
	json.Unmarshal(res.Run, &got) // the names the run record shares with the job
	json.Unmarshal(run["id"], &id)
	if _, ok := run["repeat"]; !ok {
		got.Repeat = job.Repeat // an anchor without repeats
	}
	if got.HarnessHash != job.HarnessHash || got.TaskHash != job.TaskHash || got.Model != job.Model ||
		got.TaskID != job.TaskID || got.Split != job.Split || got.Repeat != job.Repeat {
		return nil, fmt.Errorf("worker %s returned a run of %s/%s repeat %d, harness %.12s, model %s for another job; check that worker",
			res.Worker, got.Split, got.TaskID, got.Repeat, got.HarnessHash, got.Model)
	}
	if filepath.Base(id) != id || id == "" || id == "." {
		return nil, fmt.Errorf("worker %s returned a run with id %q", res.Worker, id)
	}
	delete(run, "trace_path")
	trace := ""
	if res.TraceObject != "" {
		b, err := f.trees.GetBytes(ctx, res.TraceObject)
		if err != nil {
			return nil, fmt.Errorf("fetch the trace of run %s: %w", id, err)
		}
		if sha(b) != res.TraceSHA256 {
			return nil, fmt.Errorf("the trace of run %s does not match its hash; run the job again", id)
		}
		if err := os.MkdirAll(traceDir, 0o755); err != nil {
			return nil, err
		}
		path, err := filepath.Abs(filepath.Join(traceDir, id+".jsonl"))
		if err == nil {
			err = os.WriteFile(path, b, 0o644)
		}
		if err != nil {
			return nil, fmt.Errorf("keep the trace of run %s: %w", id, err)
		}
		trace = path
	}
	if err := f.keepReport(ctx, job, res, id); err != nil {
		return nil, err
	}
	run["trace"], _ = json.Marshal(trace)
	out, err := json.Marshal(run)
	return append(out, '\n'), err
}

// keepReport fetches the scoring's report the worker stored, checks its
// hash and writes it where the job says the submitting anchor keeps it, so
// that ratchet verify re-scores a run made on another machine as one made
// here. A job that names no place (an older anchor) or a result without a
// report (nothing was scored) has nothing to keep.
func (f *Fleet) keepReport(ctx context.Context, job Job, res Result, id string) error {
	if job.Report == "" || res.ReportObject == "" {
		return nil
	}
	if !strings.HasSuffix(job.Report, ".json.gz") {
		return fmt.Errorf("job %s names report %q: not a .json.gz file", job.Key(), job.Report)
	}
	b, err := f.trees.GetBytes(ctx, res.ReportObject)
	if err != nil {
		return fmt.Errorf("fetch the report of run %s: %w", id, err)
	}
	if sha(b) != res.ReportSHA256 {
		return fmt.Errorf("the report of run %s does not match its hash; run the job again", id)
	}
	if err := os.MkdirAll(filepath.Dir(job.Report), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(job.Report, b, 0o644); err != nil {
		return fmt.Errorf("keep the report of run %s: %w", id, err)
	}
	return nil
}
