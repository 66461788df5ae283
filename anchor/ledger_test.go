package anchor

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"ratchet/harness/fakemodel"
)

// A generation can be rebuilt from the ledger alone: its parent's snapshot
// and its stored diff, applied by hand, give its hash.
func TestGenerationFromTheLedgerAlone(t *testing.T) {
	slow(t)
	t.Parallel()
	e, dir := suiteEnv(t)
	prompt := readHarness(t, dir, "system_prompt.md")
	if err := e.a.Apply(ctx(), e.candidate(t, "system_prompt.md", makeDiff(t, dir, map[string]string{"system_prompt.md": prompt + "Be CAREFUL.\n"}))); err != nil {
		t.Fatal(err)
	}
	gens := must(e.a.gens(""))
	if len(gens) != 2 || gens[1].Decision != "accept" || !gens[1].Head || *gens[1].Parent != 0 || gens[1].HoldoutP == nil {
		t.Fatalf("generations = %+v", gens)
	}
	child := gens[1]
	parent := gens[*child.Parent]
	work := filepath.Join(t.TempDir(), "rebuilt")
	if err := e.a.extract(parent.Hash, work); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "apply", e.a.path("diffs", child.DiffHash+".diff"))
	cmd.Dir = work
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v %s", err, out)
	}
	if h, _ := e.a.Snapshot(work); h != child.Hash {
		t.Errorf("rebuilt generation hashes to %s, want %s", h, child.Hash)
	}
	var ids []string
	if child.Component != "system_prompt.md" || child.Hypothesis != "test" || json.Unmarshal([]byte(child.TraceIDs), &ids) != nil ||
		len(ids) != 1 {
		t.Errorf("generation fields = %+v", child)
	}
}

func TestRollbackRestoresTheExactSnapshot(t *testing.T) {
	slow(t)
	t.Parallel()
	e, dir := suiteEnv(t)
	base, _ := e.a.head()
	prompt := readHarness(t, dir, "system_prompt.md")
	e.a.Apply(ctx(), e.candidate(t, "system_prompt.md", makeDiff(t, dir, map[string]string{"system_prompt.md": prompt + "Be CAREFUL.\n"})))
	writeFiles(t, dir, map[string]string{"scratch.txt": "local junk"})
	var runsBefore int
	e.a.db.QueryRow(`SELECT COUNT(*) FROM runs`).Scan(&runsBefore)
	if err := e.a.Rollback(ctx(), 0); err != nil {
		t.Fatal(err)
	}
	g, _ := e.a.head()
	if g.Decision != "rollback" || g.Hash != base.Hash || *g.TrainPost != *base.TrainPost || *g.HoldoutPost != *base.HoldoutPost {
		t.Errorf("rollback generation = %+v, baseline %+v", g, base)
	}
	if h, _ := e.a.Snapshot(dir); h != base.Hash {
		t.Errorf("harness/ hashes to %s after rollback, want %s", h, base.Hash)
	}
	var runsAfter int
	e.a.db.QueryRow(`SELECT COUNT(*) FROM runs`).Scan(&runsAfter)
	if runsAfter != runsBefore {
		t.Errorf("rollback re-ran %d tasks; the cache should reproduce the scores", runsAfter-runsBefore)
	}
	if err := e.a.Rollback(ctx(), 99); err == nil {
		t.Error("rollback to a missing generation succeeded")
	}
}

func TestInitTwiceAndFrozenSettings(t *testing.T) {
	slow(t)
	e, dir := suiteEnv(t)
	if err := e.a.Init(ctx(), dir); err == nil || !strings.Contains(err.Error(), "already initialized") {
		t.Errorf("second init: %v", err)
	}
	for k, v := range map[string]string{"MODEL_API": "openai", "MODEL_NAME": "scripted", "MODEL_OPTIONS": "", "ANCHOR_BUDGET": "",
		"ANCHOR_MEMORY": "", "ANCHOR_REPEATS": "", "ANCHOR_ALPHA": ""} {
		t.Setenv(k, v)
	}
	// frozen parses an eval's command line the way the anchor does and
	// holds it to the ledger.
	frozen := func(args ...string) (*Anchor, error) {
		a, o, err := parse("eval", append([]string{"--home", e.a.Home}, args...), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		a.db = e.a.db
		return a, a.frozen("eval", o.flags)
	}
	a, err := frozen()
	if err != nil || a.Alpha != 0.5 || a.Repeats != 1 || a.Budget != 100000 || a.Memory != DefaultMemory {
		t.Errorf("settings not given: err %v, alpha %g, repeats %d, budget %d, memory %d; want the ledger's 0.5, 1, 100000, %d",
			err, a.Alpha, a.Repeats, a.Budget, a.Memory, DefaultMemory)
	}
	if _, err := frozen("--alpha", "0.5", "--budget", "100000"); err != nil {
		t.Errorf("the ledger's own settings given again: %v", err)
	}
	for _, args := range [][]string{{"--budget", "5000"}, {"--repeats", "3"}, {"--alpha", "0.2"}} {
		if _, err := frozen(args...); err == nil || !strings.Contains(err.Error(), "froze "+args[0]) {
			t.Errorf("%v on a ledger that froze otherwise: %v", args, err)
		}
	}
	t.Setenv("ANCHOR_MEMORY", "1073741824")
	if _, err := frozen(); err == nil || !strings.Contains(err.Error(), "froze --memory 4294967296") {
		t.Errorf("ANCHOR_MEMORY changed: %v", err)
	}
	t.Setenv("ANCHOR_MEMORY", "")
	t.Setenv("MODEL_OPTIONS", `{"options":{"num_ctx":8192}}`)
	if _, err := frozen(); err == nil || !strings.Contains(err.Error(), "frozen") {
		t.Errorf("eval with other options: %v", err)
	}
}

// TestMain re-executes the test binary as the anchor command when asked, so
// that tests can kill a real anchor process.
func init() {
	if os.Getenv("ANCHOR_TEST_MAIN") == "1" {
		os.Exit(Main(os.Args[1:]))
	}
}

func TestKilledApplyLeavesATruthfulLedger(t *testing.T) {
	slow(t)
	t.Parallel()
	e, dir := suiteEnv(t)
	prompt := readHarness(t, dir, "system_prompt.md")
	cand := e.candidate(t, "system_prompt.md", makeDiff(t, dir, map[string]string{"system_prompt.md": prompt + "Be CAREFUL and slow.\n"}))
	before, _ := e.a.head()
	self, _ := os.Executable()
	cmd := exec.Command(self, "apply", "--candidate", cand, "--home", e.a.Home, "--tasks", e.suite)
	cmd.Env = append(os.Environ(), "ANCHOR_TEST_MAIN=1", "MODEL_API=openai", "MODEL_URL="+e.srv.URL, "MODEL_NAME=scripted",
		"MODEL_OPTIONS=", "MODEL_API_KEY="+e.a.key)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		var reason string
		e.a.db.QueryRow(`SELECT reason FROM generations WHERE decision = 'pending'`).Scan(&reason)
		if strings.HasPrefix(reason, "step 5") {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("apply never reached step 5: %s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()
	g := e.last(t)
	if g.Decision != "pending" || !strings.HasPrefix(g.Reason, "step 5") || g.Component != "system_prompt.md" || g.DiffHash == "" {
		t.Errorf("after the kill the last generation is %+v", g)
	}
	if h, _ := e.a.head(); h.Gen != before.Gen {
		t.Error("the head moved")
	}
	if h, _ := e.a.Snapshot(dir); h != before.Hash {
		t.Error("harness/ changed")
	}
	// The next apply (or anything holding the lock) records the interruption.
	unlock, err := e.a.lock()
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	g = e.last(t)
	if g.Decision != "interrupted" || !strings.Contains(g.Reason, "step 5") {
		t.Errorf("after recovery the generation is %+v", g)
	}
}

// A ledger made before the gate's columns existed is upgraded in place,
// losing nothing.
func TestOldLedgerUpgrades(t *testing.T) {
	home := t.TempDir()
	db, _ := sql.Open("sqlite", filepath.Join(home, "ledger.db"))
	if _, err := db.Exec(`CREATE TABLE runs(id TEXT PRIMARY KEY, harness_hash TEXT, task_hash TEXT, task_id TEXT, split TEXT, model TEXT, score REAL, passed INTEGER, total INTEGER, tokens_in INTEGER, tokens_out INTEGER, wall_ms INTEGER, exit_code INTEGER, trace_path TEXT, error TEXT NOT NULL DEFAULT '', created_at TEXT);
CREATE TABLE generations(gen INTEGER PRIMARY KEY, parent_gen INTEGER, harness_hash TEXT, diff_hash TEXT, component TEXT, hypothesis TEXT, trace_ids TEXT, decision TEXT, reason TEXT, train_pre REAL, train_post REAL, holdout_pre REAL, holdout_post REAL, tokens INTEGER, created_at TEXT);
INSERT INTO generations(gen, decision, reason) VALUES(0, 'baseline', 'old');`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	var out bytes.Buffer
	a := &Anchor{Home: home, Out: &out}
	if err := a.open(); err != nil {
		t.Fatal(err)
	}
	var reason, runIDs string
	var holdoutP *float64
	err := a.db.QueryRow(`SELECT reason, holdout_p, run_ids FROM generations WHERE gen = 0`).Scan(&reason, &holdoutP, &runIDs)
	if err != nil || reason != "old" || holdoutP != nil || runIDs != "" {
		t.Errorf("the old generation after the upgrade: reason %q, holdout_p %v, run_ids %q: %v", reason, holdoutP, runIDs, err)
	}
	if err := a.open(); err != nil {
		t.Fatalf("second open: %v", err)
	}
}

// An anchor killed in the middle of a run (SIGKILL: the OOM killer, a
// reboot of the job runner) must leave nothing behind once the next anchor
// opens the ledger: no mounts, no cgroups, no processes. The child is this
// test binary, running a harness that sleeps (ledger-killed-anchor.txtar).
func TestKilledAnchorLeavesNothingBehind(t *testing.T) {
	slow(t)
	t.Parallel()
	if home := os.Getenv("KILLED_ANCHOR_HOME"); home != "" {
		srv, err := fakemodel.Start()
		if err != nil {
			t.Fatal(err)
		}
		a := &Anchor{Home: home, Tasks: filepath.Join(home, "suite"), Jobs: 1, Budget: 1000, Repeats: 1, Alpha: 0.05,
			API: "openai", URL: srv.URL, ModelName: "scripted", Out: os.Stdout}
		if err := a.open(); err != nil {
			t.Fatal(err)
		}
		task := addTask(t, a.Tasks, "train", "killed")
		sleeper := (&testEnv{a: a}).hostile(t, attackFor(t, "ledger-killed-anchor").harness(), nil)
		a.RunTask(ctx(), sleeper, task, 0, true)
		return
	}
	home := t.TempDir()
	child := exec.Command(os.Args[0], "-test.run=^TestKilledAnchorLeavesNothingBehind$", "-test.count=1")
	childTmp := filepath.Join(home, "child-tmp") // the killed child never removes its own temporary folders
	if err := os.Mkdir(childTmp, 0o755); err != nil {
		t.Fatal(err)
	}
	child.Env = append(os.Environ(), "KILLED_ANCHOR_HOME="+home, "TMPDIR="+childTmp)
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	pid := strconv.Itoa(child.Process.Pid)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if started, _ := filepath.Glob(filepath.Join(home, "tmp", pid, "*", "agent", "work", "started")); len(started) > 0 {
			break
		}
		if time.Now().After(deadline) {
			child.Process.Kill()
			t.Fatal("the child anchor never started its sandbox")
		}
		time.Sleep(100 * time.Millisecond)
	}
	child.Process.Kill()
	child.Wait()
	// The sandbox dies with its anchor (bubblewrap's --die-with-parent), as
	// soon as the kernel gets to it: wait for that, up to a minute.
	outlived := func() (left []string) {
		procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, p := range procs {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), home) {
				left = append(left, p+": "+strings.ReplaceAll(string(b), "\x00", " "))
			}
		}
		return left
	}
	for deadline := time.Now().Add(time.Minute); len(outlived()) > 0 && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
	}
	next := &Anchor{Home: home}
	if err := next.open(); err != nil {
		t.Fatal(err)
	}
	next.db.Close()
	mounts, _ := os.ReadFile("/proc/self/mountinfo")
	if n := strings.Count(string(mounts), home); n > 0 {
		t.Errorf("%d mounts under the ledger's home left behind", n)
	}
	for _, c := range []string{"pids", "memory"} {
		if left, _ := filepath.Glob("/sys/fs/cgroup/" + c + "/ratchet-" + pid + "-*"); len(left) > 0 {
			t.Errorf("cgroups left behind: %v", left)
			for _, d := range left {
				os.Remove(d)
			}
		}
	}
	for _, p := range outlived() {
		t.Errorf("a process outlived its anchor by a minute: %q", p)
	}
}

// Timestamps are of fixed width, so text order is time order, and an
// older ledger's trimmed RFC 3339 times are padded when it is opened:
// …00.1Z sorted after …00.15Z as text, and …00Z after both.
func TestTimestampsSortAsTheyHappened(t *testing.T) {
	home := t.TempDir()
	db, _ := sql.Open("sqlite", filepath.Join(home, "ledger.db"))
	_, err := db.Exec(`CREATE TABLE runs(id TEXT PRIMARY KEY, harness_hash TEXT, task_hash TEXT, task_id TEXT, split TEXT,
		model TEXT, score REAL, passed INTEGER, total INTEGER, tokens_in INTEGER, tokens_out INTEGER, wall_ms INTEGER,
		exit_code INTEGER, trace_path TEXT, error TEXT NOT NULL DEFAULT '', created_at TEXT);
		INSERT INTO runs(id, created_at) VALUES('c', '2026-01-01T00:00:00.15Z'), ('b', '2026-01-01T00:00:00.1Z'),
			('a', '2026-01-01T00:00:00Z'), ('d', '2026-01-01T00:00:01.000000001Z'), ('x', 't1')`)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	a := &Anchor{Home: home, Out: &bytes.Buffer{}}
	if err := a.open(); err != nil {
		t.Fatal(err)
	}
	defer a.db.Close()
	if err := put(a.db, "runs", "id, created_at", "e", now()); err != nil {
		t.Fatal(err)
	}
	var order []string
	rows, err := a.db.Query(`SELECT id, created_at FROM runs ORDER BY created_at`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var last time.Time
	for rows.Next() {
		var id, at string
		rows.Scan(&id, &at)
		order = append(order, id)
		if id == "x" {
			continue // not a time: kept as it was
		}
		when, err := time.Parse(time.RFC3339Nano, at)
		if err != nil || len(at) != len("2006-01-02T15:04:05.000000000Z") || when.Before(last) {
			t.Errorf("run %s: created_at %q (%v) is not fixed width, or out of order", id, at, err)
		}
		last = when
	}
	if got := strings.Join(order, ""); got != "abcdex" {
		t.Errorf("runs in created_at order: %s, want abcdex", got)
	}
	if err := a.open(); err != nil {
		t.Fatalf("second open: %v", err)
	}
}
