// Package fleet runs the anchor's runs on many machines over NATS JetStream.
//
// The anchor stays the only judge and the only writer of its ledger: it
// hands each run to a runner (ANCHOR_RUNNER), and Submit is that runner. A
// job goes on a work-queue stream; a Worker on each machine takes it, fetches
// the snapshot and the task folder from an object store by hash, runs its own
// local `anchor run`, and records the result once in a key-value bucket keyed
// by the job. JetStream does the rest: acknowledgements, redelivery of a job
// whose worker died, at most MaxDeliver deliveries.
//
// It imports the anchor (for ReadTree, HashOf and ModelID), internal/show and
// the NATS client, nothing else of ours; nothing in the anchor imports it
// (docs/ARCHITECTURE.md, "Layout").
package fleet

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"ratchet/anchor"
)

// Names in JetStream. They are fixed: every coordinator and worker of one
// NATS account shares them.
const (
	jobStream    = "RATCHET_JOBS"
	jobSubject   = "ratchet.jobs"
	consumerName = "workers"
	resultBucket = "RATCHET_RESULTS" // result.<key>, failed.<key>, refused.<key>
	workerBucket = "RATCHET_WORKERS" // <worker name>, kept alive by heartbeats
	treeBucket   = "RATCHET_TREES"   // tree-<hash> (snapshots and tasks), trace-<key>-<run id>
)

// DefaultURL is where the fleet's NATS server is when neither --nats nor
// NATS_URL says otherwise.
const DefaultURL = "nats://127.0.0.1:4222"

// URL returns the NATS URL to use: flag, else NATS_URL, else DefaultURL.
func URL(flag string) string {
	switch {
	case flag != "":
		return flag
	case os.Getenv("NATS_URL") != "":
		return os.Getenv("NATS_URL")
	}
	return DefaultURL
}

// Job is one run the anchor hands to its runner, as JSON on stdin.
type Job struct {
	HarnessHash string `json:"harness_hash"`
	Snapshot    string `json:"snapshot"`
	TaskID      string `json:"task_id"`
	Split       string `json:"split"`
	TaskDir     string `json:"task_dir"`
	TaskHash    string `json:"task_hash"`
	Model       string `json:"model"`
	Budget      int64  `json:"budget"`
	Memory      int64  `json:"memory"`
	Timeout     string `json:"timeout"`
	Repeat      int    `json:"repeat"`
	AnchorBuild string `json:"anchor_build"`
	// Force asks for a fresh run: a result already in the bucket is not
	// served, and the worker's anchor runs with --force.
	Force bool `json:"force,omitempty"`
	// Report is where the submitting anchor keeps the scoring's report (for
	// ratchet verify); the submitter writes the worker's copy there.
	Report string `json:"report,omitempty"`
}

// Key names the job in the results bucket and deduplicates it on the queue:
// a hash of harness, task, model and repeat, like the anchor's run cache,
// and of the budget and memory a ledger freezes, so that two ledgers sharing
// a fleet never take each other's runs.
func (j Job) Key() string {
	conditions := strconv.FormatInt(j.Budget, 10) + "\n" + strconv.FormatInt(j.Memory, 10)
	h := sha256.Sum256([]byte(j.HarnessHash + "\n" + j.TaskHash + "\n" + j.Model + "\n" + strconv.Itoa(j.Repeat) + "\n" + conditions))
	return hex.EncodeToString(h[:16])
}

// check says what is wrong with a job, or nil.
func (j Job) check() error {
	for name, v := range map[string]string{"harness_hash": j.HarnessHash, "task_hash": j.TaskHash, "task_id": j.TaskID,
		"split": j.Split, "model": j.Model, "anchor_build": j.AnchorBuild} {
		if v == "" {
			return fmt.Errorf("job has no %s; the anchor writes the whole job, see docs/OPERATOR.md", name)
		}
	}
	for _, name := range []string{j.TaskID, j.Split} {
		if !filepath.IsLocal(name) || filepath.Base(name) != name {
			return fmt.Errorf("job names task %q in split %q: not a plain folder name", j.TaskID, j.Split)
		}
	}
	if j.Repeat < 0 || j.Budget < 0 || j.Memory < 0 {
		return errors.New("job has a negative repeat, budget or memory")
	}
	return nil
}

// Result is what a worker records for a job in the results bucket: the run
// record as its anchor printed it, and where the trace is.
type Result struct {
	Run         json.RawMessage `json:"run"`
	TraceObject string          `json:"trace_object"`
	TraceSHA256 string          `json:"trace_sha256"`
	// The scoring's report, kept by the worker's anchor, for the
	// submitting ledger's ratchet verify.
	ReportObject string `json:"report_object,omitempty"`
	ReportSHA256 string `json:"report_sha256,omitempty"`
	Worker       string `json:"worker"`
}

// Failure is what ends a job that no worker could run: a worker's refusal
// or error on the last delivery, or the queue giving up.
type Failure struct {
	Reason string `json:"reason"`
	Worker string `json:"worker,omitempty"`
}

// Settings are the queue's: fixed by whoever creates it first; later
// callers use what is there (Fleet.Settings).
type Settings struct {
	MaxDeliver int           // deliveries of a job before it fails
	AckWait    time.Duration // silence after which a job is redelivered
}

// DefaultSettings suit runs of minutes: a worker reports progress every
// AckWait/3, so a dead worker's job moves on after 30 s.
var DefaultSettings = Settings{MaxDeliver: 4, AckWait: 30 * time.Second}

// Fleet is a connection to the fleet's streams and buckets.
type Fleet struct {
	nc       *nats.Conn
	js       jetstream.JetStream
	jobs     jetstream.Stream
	queue    jetstream.Consumer
	results  jetstream.KeyValue
	workers  jetstream.KeyValue
	trees    jetstream.ObjectStore
	Settings Settings
}

// Open connects to the NATS server at url and creates what is missing:
// the job stream and its consumer, the buckets and the object store.
// A worker passes forever=true to reconnect through outages.
func Open(ctx context.Context, url, name string, s Settings, forever bool) (*Fleet, error) {
	opts := []nats.Option{nats.Name(name), nats.Timeout(5 * time.Second)}
	if forever {
		opts = append(opts, nats.MaxReconnects(-1), nats.ReconnectWait(time.Second))
	}
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, fmt.Errorf("connect to NATS at %s: %w; start nats-server -js there, or pass --nats / set NATS_URL", url, err)
	}
	f := &Fleet{nc: nc}
	if err := f.setup(ctx, s); err != nil {
		nc.Close()
		return nil, fmt.Errorf("set up the fleet on %s: %w; the server needs JetStream (nats-server -js)", url, err)
	}
	return f, nil
}

func (f *Fleet) setup(ctx context.Context, s Settings) error {
	var err error
	if f.js, err = jetstream.New(f.nc); err != nil {
		return err
	}
	f.jobs, err = f.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: jobStream, Subjects: []string{jobSubject},
		Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Duplicates: 10 * time.Minute})
	if err != nil {
		return err
	}
	f.queue, err = f.js.Consumer(ctx, jobStream, consumerName)
	if errors.Is(err, jetstream.ErrConsumerNotFound) {
		f.queue, err = f.js.CreateConsumer(ctx, jobStream, jetstream.ConsumerConfig{Durable: consumerName,
			AckPolicy: jetstream.AckExplicitPolicy, AckWait: s.AckWait, MaxDeliver: s.MaxDeliver})
	}
	if err != nil {
		return err
	}
	cfg := f.queue.CachedInfo().Config
	f.Settings = Settings{MaxDeliver: cfg.MaxDeliver, AckWait: cfg.AckWait}
	if f.results, err = f.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: resultBucket, Storage: jetstream.FileStorage}); err != nil {
		return err
	}
	if f.workers, err = f.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: workerBucket, TTL: 30 * time.Second, Storage: jetstream.MemoryStorage}); err != nil {
		return err
	}
	f.trees, err = f.js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: treeBucket, Storage: jetstream.FileStorage, Compression: true})
	return err
}

// Close sends what is pending (a worker's last acks) and closes the
// connection.
func (f *Fleet) Close() error {
	err := f.nc.FlushTimeout(5 * time.Second)
	f.nc.Close()
	return err
}

// putTree stores the files of dir under tree-<hash> unless they are there,
// after checking that they hash to hash.
func (f *Fleet) putTree(ctx context.Context, dir, hash string) error {
	name := "tree-" + hash
	if _, err := f.trees.GetInfo(ctx, name); err == nil {
		return nil
	}
	files, err := anchor.ReadTree(dir, true)
	if err != nil {
		return err
	}
	if got := anchor.HashOf(files); got != hash {
		return fmt.Errorf("%s hashes to %s, not %s: it changed since the anchor read it", dir, got, hash)
	}
	packed, err := packTree(files)
	if err != nil {
		return fmt.Errorf("pack %s: %w", dir, err)
	}
	_, err = f.trees.PutBytes(ctx, name, packed)
	return err
}

// fetchTree makes dir hold exactly the tree stored as hash: what is already
// there is kept only if it still hashes right.
func (f *Fleet) fetchTree(ctx context.Context, hash, dir string) error {
	if files, err := anchor.ReadTree(dir, true); err == nil && anchor.HashOf(files) == hash {
		return nil
	}
	b, err := f.trees.GetBytes(ctx, "tree-"+hash)
	if err != nil {
		return fmt.Errorf("fetch tree %s: %w", hash, err)
	}
	files, err := unpackTree(b)
	if err != nil {
		return fmt.Errorf("tree %s: %w", hash, err)
	}
	if got := anchor.HashOf(files); got != hash {
		return fmt.Errorf("tree %s arrived hashing to %s; refusing it", hash, got)
	}
	tmp := dir + ".tmp-" + strconv.Itoa(os.Getpid())
	os.RemoveAll(tmp)
	defer os.RemoveAll(tmp)
	if err := anchor.WriteTree(tmp, files); err != nil {
		return err
	}
	os.RemoveAll(dir) // what is there is replaced; if it will not go, the rename below says so
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	return os.Rename(tmp, dir)
}

// packTree is a plain tar of files in path order.
func packTree(files map[string][]byte) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(files[name])), Typeflag: tar.TypeReg, Format: tar.FormatPAX})
		if _, werr := tw.Write(files[name]); err != nil || werr != nil {
			return nil, errors.Join(err, werr)
		}
	}
	err := tw.Close()
	return buf.Bytes(), err
}

// unpackTree reads a packTree archive; anything but a regular file under a
// local path is refused.
func unpackTree(b []byte) (map[string][]byte, error) {
	files := map[string][]byte{}
	tr := tar.NewReader(bytes.NewReader(b))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg || !filepath.IsLocal(h.Name) {
			return nil, fmt.Errorf("refusing entry %q: not a regular file under the tree", h.Name)
		}
		if files[h.Name], err = io.ReadAll(tr); err != nil {
			return nil, err
		}
	}
}

func sha(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
