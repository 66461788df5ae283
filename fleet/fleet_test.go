package fleet

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"ratchet/anchor"
	"ratchet/harness/fakemodel"
	"ratchet/internal/testtree"
)

// bin holds the ratchet and anchor binaries built once for the package.
var bin string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "fleet-bin-")
	if err != nil {
		panic(err)
	}
	if !testing.Short() {
		for _, name := range []string{"ratchet", "anchor"} {
			cmd := exec.Command("go", "build", "-o", filepath.Join(dir, name), "./cmd/"+name)
			cmd.Dir = repoRoot()
			if out, err := cmd.CombinedOutput(); err != nil {
				fmt.Fprintf(os.Stderr, "build %s: %v\n%s", name, err, out)
				os.Exit(1)
			}
		}
	}
	bin = dir
	code := m.Run()
	os.RemoveAll(dir)
	if warm.home != "" {
		os.RemoveAll(warm.home)
	}
	os.Exit(code)
}

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..")
}

// startNATS runs an embedded nats-server with JetStream on a loopback port
// and a store in a temporary folder.
func startNATS(t testing.TB) string {
	t.Helper()
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server did not start")
	}
	t.Cleanup(s.Shutdown)
	return s.ClientURL()
}

// suite writes a suite of Double tasks: tasks named fix-* are solved by the
// model, the others are not, so scores differ from task to task.
func suite(t testing.TB, tasks map[string][]string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "suite")
	for split, ids := range tasks {
		for _, id := range ids {
			testtree.AddTask(t, root, split, id, nil)
		}
	}
	return root
}

// model is the scripted model: it fixes Double in tasks named fix-*, gives
// up on the others, and waits delay before each reply.
type model struct {
	*fakemodel.Server
	delay atomic.Int64
}

func startModel(t testing.TB, delay time.Duration) *model {
	t.Helper()
	m := &model{}
	m.delay.Store(int64(delay))
	steps := make([]fakemodel.Step, 100000)
	for i := range steps {
		steps[i] = fakemodel.Step{Func: m.reply}
	}
	srv, err := fakemodel.Start(steps...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	m.Server = srv
	return m
}

func (m *model) reply(r fakemodel.Request) fakemodel.Step {
	time.Sleep(time.Duration(m.delay.Load()))
	body := string(r.Body)
	switch {
	case strings.Contains(body, "wrote "):
		return fakemodel.Step{Text: "Fixed.", In: 60, Out: 4}
	case !strings.Contains(body, "wrong in fix-"):
		return fakemodel.Step{Text: "I give up.", In: 40, Out: 4}
	}
	args, _ := json.Marshal(map[string]string{"path": "m.go", "content": testtree.Fixed})
	return fakemodel.Step{Calls: []fakemodel.Call{{Name: "write_file", Args: string(args)}}, In: 50, Out: 30}
}

// modelEnv is the environment of anchors and workers for model m.
func modelEnv(m *model, name string) []string {
	return append(os.Environ(), "MODEL_API=openai", "MODEL_URL="+m.URL, "MODEL_NAME="+name, "MODEL_OPTIONS=", "ANCHOR_JOBS=2")
}

// lines is a goroutine-safe log that tests wait on.
type lines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// waitFor waits until l holds s, or fails the test.
func (l *lines) waitFor(t testing.TB, s string, within time.Duration) {
	t.Helper()
	for end := time.Now().Add(within); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if strings.Contains(l.String(), s) {
			return
		}
	}
	t.Fatalf("no %q within %s in:\n%s", s, within, l.String())
}

// startWorker runs `ratchet fleet worker` from the built binary. Its
// anchor starts with the build caches of the anchor home seed, as a
// provisioned machine would: warming them takes minutes on a busy machine.
func startWorker(t testing.TB, url, name string, env []string, seed string) (*exec.Cmd, *lines) {
	t.Helper()
	// Not t.TempDir: a killed worker's sandboxes may still be going away.
	home, err := os.MkdirTemp("", "fleet-worker-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for range 40 {
			if os.RemoveAll(home) == nil {
				return
			}
			time.Sleep(250 * time.Millisecond)
		}
		// A sandbox mount left behind means a run was killed without its
		// anchor cleaning up; take it down so the machine stays clean.
		b, _ := os.ReadFile("/proc/self/mounts")
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) > 1 && strings.HasPrefix(f[1], home) {
				t.Errorf("mount left under the worker's home: %s", f[1])
				syscall.Unmount(f[1], syscall.MNT_DETACH)
			}
		}
		os.RemoveAll(home)
	})
	for _, dir := range []string{"cache", "builds"} {
		if _, err := os.Stat(filepath.Join(seed, dir)); seed == "" || err != nil {
			continue
		}
		os.MkdirAll(filepath.Join(home, "anchor"), 0o755)
		cp := exec.Command("cp", "-a", filepath.Join(seed, dir), filepath.Join(home, "anchor"))
		if out, err := cp.CombinedOutput(); err != nil {
			t.Fatalf("seed the worker: %v: %s", err, out)
		}
	}
	log := &lines{}
	cmd := exec.Command(filepath.Join(bin, "ratchet"), "fleet", "worker", "--nats", url, "--anchor", filepath.Join(bin, "anchor"),
		"--home", home, "--name", name, "--ack-wait", "2s", "--max-deliver", "3")
	// An ANCHOR_RUNNER inherited from the coordinator's shell is ignored.
	cmd.Env = append(env[:len(env):len(env)], "ANCHOR_RUNNER=/bin/false")
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGCONT)
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("worker %s:\n%s", name, log.String())
		}
	})
	log.waitFor(t, "worker "+name+":", 20*time.Second)
	return cmd, log
}

// jobFor is the job the anchor would write for a task of the suite.
func jobFor(t testing.TB, snapshot, taskDir, modelName string) Job {
	t.Helper()
	files, err := anchor.ReadTree(taskDir, true)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(bin, "anchor"))
	if err != nil {
		t.Fatal(err)
	}
	return Job{HarnessHash: filepath.Base(snapshot), Snapshot: snapshot, TaskID: filepath.Base(taskDir), Split: filepath.Base(filepath.Dir(taskDir)),
		TaskDir: taskDir, TaskHash: anchor.HashOf(files), Model: modelID("openai", modelName, ""), Budget: 100000, Timeout: "10m0s", AnchorBuild: sha(b)}
}

// snapshot stores the repository's harness in a fresh anchor home and
// returns the snapshot folder.
func snapshot(t testing.TB, env []string) string {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(filepath.Join(bin, "anchor"), "snapshot", "--home", home, filepath.Join(repoRoot(), "harness"))
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("anchor snapshot: %v", err)
	}
	return filepath.Join(home, "snapshots", strings.TrimSpace(string(out)))
}

// submit runs `ratchet fleet submit` from the built binary with job on stdin.
func submit(t testing.TB, url string, job Job, traceDir string) (map[string]any, string, error) {
	t.Helper()
	b, _ := json.Marshal(job)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "ratchet"), "fleet", "submit", "--nats", url, "--trace-dir", traceDir)
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(b), &stdout, &stderr
	err := cmd.Run()
	var run map[string]any
	if err == nil {
		if jerr := json.Unmarshal(stdout.Bytes(), &run); jerr != nil {
			t.Fatalf("submit printed %q: %v", stdout.String(), jerr)
		}
	}
	return run, stderr.String(), err
}

var warm struct {
	once sync.Once
	home string
	err  error
}

// warmHome returns an anchor home whose build caches are warm and which
// holds the build of the repository's harness, made once per test binary;
// workers start from copies of it.
func warmHome(t testing.TB) string {
	t.Helper()
	warm.once.Do(func() {
		m := startModel(t, 0)
		env := modelEnv(m, "scripted")
		warm.home, warm.err = os.MkdirTemp("", "fleet-warm-")
		cmd := exec.Command(filepath.Join(bin, "anchor"), "run", "--home", warm.home, "--harness", filepath.Join(repoRoot(), "harness"),
			"--task", filepath.Join(suite(t, map[string][]string{"train": {"warm"}}), "train", "warm"), "--json")
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			warm.err = fmt.Errorf("warm run: %v: %s", err, out)
		}
	})
	if warm.err != nil {
		t.Fatal(warm.err)
	}
	return warm.home
}

// localRun runs the task with the anchor on this machine.
func localRun(t testing.TB, env []string, home, snapshot, taskDir string) map[string]any {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "anchor"), "run", "--home", home, "--harness", snapshot, "--task", taskDir, "--json")
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("anchor run: %v", err)
	}
	var run map[string]any
	if err := json.Unmarshal(out, &run); err != nil {
		t.Fatal(err)
	}
	return run
}

// traceEvents reads a trace without its timestamps.
func traceEvents(t testing.TB, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var events []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var e map[string]any
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		for k := range e {
			if k == "ts" || strings.HasSuffix(k, "_ms") {
				delete(e, k)
			}
		}
		events = append(events, e)
	}
	return events
}

// same compares the fields of a run that must not depend on the machine.
func same(t testing.TB, label string, got, want map[string]any) {
	t.Helper()
	for _, k := range []string{"harness_hash", "task_hash", "task_id", "split", "model", "score", "passed", "total", "tokens_in", "tokens_out", "exit_code", "error"} {
		if fmt.Sprint(got[k]) != fmt.Sprint(want[k]) {
			t.Errorf("%s: %s = %v through the fleet, %v locally", label, k, got[k], want[k])
		}
	}
}

func openFleet(t testing.TB, url string) *Fleet {
	t.Helper()
	f, err := Open(context.Background(), url, "test", Settings{MaxDeliver: 3, AckWait: 2 * time.Second}, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestSubmitToWorkers runs jobs through two worker processes and compares
// each result and trace with the same run on this machine.
func TestSubmitToWorkers(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs nats-server, workers, anchors and sandboxes")
	}
	url := startNATS(t)
	m := startModel(t, 0)
	env := modelEnv(m, "scripted")
	tasks := suite(t, map[string][]string{"train": {"fix-a", "stuck-b", "fix-c"}})
	snap := snapshot(t, env)
	ids := []string{"fix-a", "stuck-b", "fix-c"}
	home, locals := warmHome(t), map[string]map[string]any{}
	for _, id := range ids {
		locals[id] = localRun(t, env, home, snap, filepath.Join(tasks, "train", id))
	}
	f := openFleet(t, url) // the queue's settings: 3 deliveries, 2 s ack wait
	startWorker(t, url, "w1", env, home)
	startWorker(t, url, "w2", env, home)

	traces := t.TempDir()
	runs := make([]map[string]any, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Go(func() {
			run, stderr, err := submit(t, url, jobFor(t, snap, filepath.Join(tasks, "train", id), "scripted"), traces)
			if err != nil {
				t.Errorf("submit %s: %v: %s", id, err, stderr)
			}
			runs[i] = run
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for i, id := range ids {
		local := locals[id]
		same(t, id, runs[i], local)
		if _, ok := runs[i]["trace_path"]; ok {
			t.Errorf("%s: the worker's trace_path leaked to the coordinator", id)
		}
		trace, _ := runs[i]["trace"].(string)
		if !filepath.IsAbs(trace) || filepath.Dir(trace) != traces {
			t.Fatalf("%s: trace %q is not in %s", id, trace, traces)
		}
		got, want := traceEvents(t, trace), traceEvents(t, local["trace_path"].(string))
		if gb, _ := json.Marshal(got); string(gb) != mustJSON(want) || len(got) == 0 {
			t.Errorf("%s: trace differs from the local run's:\n%s\n%s", id, gb, mustJSON(want))
		}
	}
	if runs[0]["score"] != 1.0 || runs[1]["score"] != 0.0 {
		t.Errorf("scores %v, %v; want 1 and 0", runs[0]["score"], runs[1]["score"])
	}
	st, err := settled(t, f)
	if err != nil || st.Results != 3 || st.Queued != 0 || st.InFlight != 0 || len(st.Workers) != 2 {
		t.Errorf("status = %+v, %v", st, err)
	}

	// A coordinator that comes back gets the recorded result: same run id,
	// nothing enqueued.
	before, _ := f.jobs.Info(context.Background())
	again, stderr, err := submit(t, url, jobFor(t, snap, filepath.Join(tasks, "train", "fix-a"), "scripted"), t.TempDir())
	after, _ := f.jobs.Info(context.Background())
	if err != nil || again["id"] != runs[0]["id"] || after.State.LastSeq != before.State.LastSeq {
		t.Errorf("re-attach: run %v (want %v), %v %s; queue seq %d -> %d", again["id"], runs[0]["id"], err, stderr, before.State.LastSeq, after.State.LastSeq)
	}
}

// settled reads the fleet's status once the queue has caught up with the
// results: a worker records a result before it acknowledges the job, so a
// submitter can return while the ack is still on its way.
func settled(t *testing.T, f *Fleet) (Status, error) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		st, err := f.Status(context.Background())
		if err != nil || st.InFlight == 0 && st.Queued == 0 || time.Now().After(deadline) {
			return st, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
