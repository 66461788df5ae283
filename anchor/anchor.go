package anchor

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	_ "modernc.org/sqlite"
)

// Anchor is one invocation's settings and open ledger. The model settings
// are the operator's; key, the credential, never leaves the proxy.
type Anchor struct {
	Home, Tasks, API, URL, ModelName, Options, key string
	Jobs                                           int
	Budget                                         int64
	Out                                            io.Writer
	db                                             *sql.DB
	buildMu, warmMu                                sync.Mutex
}

// Main runs the anchor command line and returns the exit status.
func Main(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, args, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "anchor:", err)
		return 1
	}
	return 0
}

const usage = "usage: anchor init|snapshot|run|eval|apply|log|rollback|traces [flags]; see docs/OPERATOR.md"

func run(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	a := &Anchor{Out: out, API: env("MODEL_API", "openai"), URL: env("MODEL_URL", "http://127.0.0.1:11434"),
		ModelName: os.Getenv("MODEL_NAME"), Options: strings.TrimSpace(os.Getenv("MODEL_OPTIONS"))}
	a.key = env("MODEL_API_KEY", os.Getenv(map[bool]string{true: "ANTHROPIC_API_KEY", false: "OPENAI_API_KEY"}[a.API == "anthropic"]))
	fs := flag.NewFlagSet("anchor "+args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&a.Home, "home", env("ANCHOR_HOME", ".anchor"), "")
	fs.StringVar(&a.Tasks, "tasks", env("ANCHOR_TASKS", "tasks/example"), "")
	fs.IntVar(&a.Jobs, "jobs", atoi(os.Getenv("ANCHOR_JOBS"), runtime.NumCPU()), "")
	fs.Int64Var(&a.Budget, "budget", int64(atoi(os.Getenv("ANCHOR_BUDGET"), 100000)), "")
	harness, task, split := fs.String("harness", "", ""), fs.String("task", "", ""), fs.String("split", "", "")
	candidate, force := fs.String("candidate", "", ""), fs.Bool("force", false, "")
	asJSON, failed := fs.Bool("json", false, ""), fs.Bool("failed", false, "")
	if err := fs.Parse(args[1:]); err != nil {
		return fmt.Errorf("%v; %s", err, usage)
	}
	needs := map[string][]string{"init": {"harness"}, "run": {"harness", "task"}, "eval": {"harness", "split"}, "apply": {"candidate"}}
	for _, n := range needs[args[0]] {
		if fs.Lookup(n).Value.String() == "" {
			return fmt.Errorf("anchor %s needs --%s; %s", args[0], n, usage)
		}
	}
	switch {
	case a.API != "openai" && a.API != "anthropic":
		return fmt.Errorf("MODEL_API=%q is not supported; set it to openai or anthropic", a.API)
	case a.Options != "" && !json.Valid([]byte(a.Options)):
		return errors.New("MODEL_OPTIONS is not valid JSON; fix it or unset it")
	case a.Jobs < 1 || a.Budget < 1:
		return errors.New("--jobs and --budget must be positive")
	case args[0] == "traces" && *split != "train":
		return errors.New("anchor traces serves --split train only; holdout and sealed traces are never shown")
	case args[0] == "snapshot" && fs.NArg() == 1:
		hash, err := a.Snapshot(fs.Arg(0))
		if err == nil {
			fmt.Fprintln(out, hash)
		}
		return err
	}
	if err := a.open(); err != nil {
		return err
	}
	defer a.db.Close()
	if args[0] == "init" || args[0] == "apply" || args[0] == "rollback" {
		unlock, err := a.lock()
		if err != nil {
			return err
		}
		defer unlock()
	}
	var v any
	switch args[0] {
	case "init":
		return a.Init(ctx, *harness)
	case "apply":
		return a.Apply(ctx, *candidate)
	case "log":
		return a.Log(*asJSON)
	case "rollback":
		gen, err := strconv.Atoi(fs.Arg(0))
		if fs.NArg() != 1 || err != nil {
			return errors.New("usage: anchor rollback GEN (a generation number from anchor log)")
		}
		return a.Rollback(ctx, gen)
	case "run", "eval", "traces":
		hash, err := a.resolveHarness(cmp(*harness, "head"))
		if err != nil {
			return err
		}
		switch args[0] {
		case "run":
			v, err = a.RunTask(ctx, hash, *task, *force)
		case "traces":
			v, err = query[Run](a.db, `SELECT * FROM runs r WHERE split = 'train' AND harness_hash = ? AND model = ? AND score < ? AND created_at =
				(SELECT MAX(created_at) FROM runs WHERE task_id = r.task_id AND split = 'train' AND harness_hash = r.harness_hash AND model = r.model)
				ORDER BY task_id`, hash, a.Model(), map[bool]float64{true: 1, false: 2}[*failed])
		case "eval":
			mean, runs, eerr := a.Evaluate(ctx, hash, *split, *force, !*asJSON)
			v, err = map[string]any{"harness_hash": hash, "split": *split, "model": a.Model(), "mean": mean, "tasks": runs}, eerr
			if !*asJSON {
				return err
			}
		}
		if err != nil {
			return err
		}
		return json.NewEncoder(out).Encode(v)
	}
	return errors.New(usage)
}

// Model names the frozen model of a run: the API, the name and a hash of
// the options, so that changing num_ctx never reuses old runs.
func (a *Anchor) Model() string {
	h := sha256.Sum256([]byte(a.Options))
	return a.API + ":" + a.ModelName + "#" + hex.EncodeToString(h[:6])
}

func env(k, def string) string { return cmp(os.Getenv(k), def) }

func cmp(v, def string) string {
	if v != "" {
		return v
	}
	return def
}

func atoi(s string, def int) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return def
}

func (a *Anchor) path(elem ...string) string { return filepath.Join(append([]string{a.Home}, elem...)...) }

// The ledger: seed 004's four tables, plus meta for the frozen model and
// the harness working copy. runs.error is empty for a run that happened as
// intended; only such runs are served from the cache.
const schema = `
CREATE TABLE IF NOT EXISTS runs(id TEXT PRIMARY KEY, harness_hash TEXT, task_hash TEXT, task_id TEXT,
  split TEXT, model TEXT, score REAL, passed INTEGER, total INTEGER, tokens_in INTEGER, tokens_out INTEGER,
  wall_ms INTEGER, exit_code INTEGER, trace_path TEXT, error TEXT NOT NULL DEFAULT '', created_at TEXT);
CREATE INDEX IF NOT EXISTS runs_key ON runs(harness_hash, task_hash, model);
CREATE TABLE IF NOT EXISTS evals(id INTEGER PRIMARY KEY, harness_hash TEXT, split TEXT, model TEXT,
  score REAL, n_tasks INTEGER, cached INTEGER, created_at TEXT);
CREATE TABLE IF NOT EXISTS generations(gen INTEGER PRIMARY KEY, parent_gen INTEGER, harness_hash TEXT,
  diff_hash TEXT, component TEXT, hypothesis TEXT, trace_ids TEXT, decision TEXT, reason TEXT,
  train_pre REAL, train_post REAL, holdout_pre REAL, holdout_post REAL, tokens INTEGER, created_at TEXT);
CREATE TABLE IF NOT EXISTS head(id INTEGER PRIMARY KEY CHECK (id = 1), gen INTEGER);
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);`

func (a *Anchor) open() error {
	for _, d := range []string{"snapshots", "traces", "builds", "diffs", "tmp"} {
		if err := os.MkdirAll(a.path(d), 0o755); err != nil {
			return fmt.Errorf("create anchor home: %w; check --home / ANCHOR_HOME", err)
		}
	}
	db, err := sql.Open("sqlite", a.path("ledger.db")+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(FULL)")
	if err == nil {
		db.SetMaxOpenConns(1)
		_, err = db.Exec(schema)
	}
	if a.db = db; err != nil {
		err = fmt.Errorf("open ledger %s: %w", a.path("ledger.db"), err)
	}
	return err
}

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }

// insert writes v, a struct whose json tags name the columns, as a row.
func insert(db interface {
	Exec(string, ...any) (sql.Result, error)
}, table string, v any) error {
	b, _ := json.Marshal(v)
	var row map[string]any
	json.Unmarshal(b, &row)
	var cols, marks []string
	var args []any
	for c, val := range row {
		if l, ok := val.([]any); ok {
			j, _ := json.Marshal(l)
			val = string(j)
		}
		if c != "head" && (c != "cached" || table != "runs") { // derived, not stored
			cols, marks, args = append(cols, c), append(marks, "?"), append(args, val)
		}
	}
	_, err := db.Exec(`INSERT OR REPLACE INTO `+table+`(`+strings.Join(cols, ",")+`) VALUES(`+strings.Join(marks, ",")+`)`, args...)
	return err
}

// query reads rows into structs whose json tags name the columns.
func query[T any](db *sql.DB, q string, args ...any) ([]T, error) {
	rows, err := db.Query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	out := []T{}
	for rows.Next() {
		vals, ptrs, row := make([]any, len(cols)), make([]any, len(cols)), map[string]any{}
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		rows.Scan(ptrs...)
		for i, c := range cols {
			row[c] = vals[i]
			if s, ok := vals[i].(string); ok && c == "trace_ids" {
				row[c] = json.RawMessage(s)
			} else if c == "head" {
				row[c] = vals[i] == int64(1)
			}
		}
		b, _ := json.Marshal(row)
		var v T
		if err := json.Unmarshal(b, &v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// Gen is one generations row.
type Gen struct {
	Gen         int      `json:"gen"`
	Parent      *int     `json:"parent_gen"`
	Hash        string   `json:"harness_hash"`
	DiffHash    string   `json:"diff_hash"`
	Component   string   `json:"component"`
	Hypothesis  string   `json:"hypothesis"`
	TraceIDs    []string `json:"trace_ids"`
	Decision    string   `json:"decision"`
	Reason      string   `json:"reason"`
	TrainPre    *float64 `json:"train_pre"`
	TrainPost   *float64 `json:"train_post"`
	HoldoutPre  *float64 `json:"holdout_pre"`
	HoldoutPost *float64 `json:"holdout_post"`
	Tokens      int64    `json:"tokens"`
	CreatedAt   string   `json:"created_at"`
	Head        bool     `json:"head"`
}

// putGen writes a generation row, and with head makes it the head in the
// same transaction. Apply calls it after every step (I4).
func (a *Anchor) putGen(g *Gen, head bool) error {
	tx, err := a.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	g.CreatedAt = now()
	if err = insert(tx, "generations", g); err == nil && head {
		_, err = tx.Exec(`INSERT OR REPLACE INTO head(id, gen) VALUES(1, ?)`, g.Gen)
	}
	return errors.Join(err, tx.Commit())
}

func (a *Anchor) gens(where string, args ...any) ([]Gen, error) {
	return query[Gen](a.db, `SELECT *, gen = (SELECT gen FROM head) AS head FROM generations `+where+` ORDER BY gen`, args...)
}

// head returns the current head generation.
func (a *Anchor) head() (Gen, error) {
	gs, err := a.gens(`WHERE gen = (SELECT gen FROM head)`)
	if err == nil && len(gs) == 0 {
		return Gen{}, errors.New("this ledger has no head yet; run `anchor init --harness harness` first")
	}
	return append(gs, Gen{})[0], err
}

func (a *Anchor) meta(key string) (v string) {
	a.db.QueryRow(`SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	return v
}

// frozenModel enforces I1: a ledger measures one model for its whole life.
func (a *Anchor) frozenModel() error {
	if m := a.meta("model"); m != "" && m != a.Model() {
		return fmt.Errorf("this ledger's model is frozen as %s but MODEL_* now say %s; restore the settings or use a new --home", m, a.Model())
	}
	return nil
}

// Log prints the generations, train and holdout side by side.
func (a *Anchor) Log(asJSON bool) error {
	gs, err := a.gens("")
	if err != nil || asJSON {
		return errors.Join(err, json.NewEncoder(a.Out).Encode(gs))
	}
	f := func(p *float64) string {
		if p == nil {
			return "  -  "
		}
		return fmt.Sprintf("%.3f", *p)
	}
	for _, g := range gs {
		fmt.Fprintf(a.Out, "%3d%-2s %-11s train %s→%s  holdout %s→%s  %-26s %s\n", g.Gen, map[bool]string{true: " *"}[g.Head], g.Decision,
			f(g.TrainPre), f(g.TrainPost), f(g.HoldoutPre), f(g.HoldoutPost), g.Component, g.Reason)
	}
	return nil
}

// lock takes the ledger's apply lock: one init, apply or rollback at a time.
// Holding it, any generation still "pending" belongs to a dead apply.
func (a *Anchor) lock() (func(), error) {
	f, err := os.OpenFile(a.path("apply.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err == nil && syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		f.Close()
		return nil, errors.New("another anchor init, apply or rollback holds this ledger; wait for it to finish")
	}
	if err == nil {
		_, err = a.db.Exec(`UPDATE generations SET decision = 'interrupted', reason = 'interrupted during: ' || reason WHERE decision = 'pending'`)
	}
	return func() { f.Close() }, err
}

// Init snapshots the hand-written baseline, evaluates it on train and
// holdout and writes generation 0.
func (a *Anchor) Init(ctx context.Context, dir string) error {
	if _, err := os.Stat(filepath.Join(dir, "manifest.toml")); err != nil {
		return fmt.Errorf("%s is not a harness: it has no manifest.toml; pass the harness folder", dir)
	} else if _, err := a.head(); err == nil {
		return errors.New("this ledger is already initialized; use anchor log, or a new --home for a new ledger")
	}
	hash, err := a.Snapshot(dir)
	abs, _ := filepath.Abs(dir)
	if err == nil {
		_, err = a.db.Exec(`INSERT OR REPLACE INTO meta VALUES('model', ?), ('harness_dir', ?)`, a.Model(), abs)
	}
	if err != nil {
		return err
	}
	return a.newHead(ctx, &Gen{Gen: 0, Hash: hash, Decision: "baseline", Reason: "hand-written baseline"})
}

// newHead scores g's snapshot (from the cache where it can), makes it the
// head and refreshes the harness working copy.
func (a *Anchor) newHead(ctx context.Context, g *Gen) error {
	for _, dst := range []**float64{&g.TrainPost, &g.HoldoutPost} {
		mean, runs, err := a.Evaluate(ctx, g.Hash, map[bool]string{true: "train", false: "holdout"}[dst == &g.TrainPost], false, true)
		if err != nil {
			return err
		}
		*dst, g.Tokens = &mean, g.Tokens+tokens(runs)
	}
	if err := a.putGen(g, true); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "generation %d (%s) %s: train %.3f, holdout %.3f\n", g.Gen, g.Decision, g.Hash[:12], *g.TrainPost, *g.HoldoutPost)
	return a.refreshWorkingCopy(g.Hash, a.meta("harness_dir"))
}

// Rollback makes generation gen's snapshot the head again. Its scores come
// from the run cache, so they are reproduced exactly.
func (a *Anchor) Rollback(ctx context.Context, gen int) error {
	head, err := a.head()
	gs, _ := a.gens(`WHERE gen = ? AND decision IN ('baseline', 'accept', 'rollback')`, gen)
	if err == nil && len(gs) == 0 {
		err = fmt.Errorf("generation %d was never a head; pick a baseline, accept or rollback generation from anchor log", gen)
	}
	if err != nil {
		return err
	}
	return a.newHead(ctx, &Gen{Gen: a.nextGen(), Parent: &head.Gen, Hash: gs[0].Hash, Decision: "rollback", Reason: fmt.Sprintf("rollback to generation %d", gen)})
}

func (a *Anchor) nextGen() (n int) {
	a.db.QueryRow(`SELECT COALESCE(MAX(gen), -1) + 1 FROM generations`).Scan(&n)
	return n
}

// Apply runs the acceptance rule on a candidate JSON {diff, component,
// hypothesis, trace_ids}, diff being a path relative to the JSON file. Each
// step is written to the ledger before the next begins; a rejection is
// recorded with its reason and is not an error of the command.
func (a *Anchor) Apply(ctx context.Context, path string) error {
	var c struct {
		Diff, Component, Hypothesis string
		TraceIDs                    []string `json:"trace_ids"`
	}
	var diff []byte
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err == nil && (c.Diff == "" || c.Component == "") {
		err = errors.New("diff and component are required")
	}
	if err == nil {
		diff, err = os.ReadFile(filepath.Join(filepath.Dir(path), c.Diff))
	}
	if err != nil {
		return fmt.Errorf("read candidate %s: want JSON {diff, component, hypothesis, trace_ids} (%v); nothing was recorded", path, err)
	}
	head, err := a.head()
	if err = errors.Join(err, a.frozenModel()); err != nil {
		return err
	}
	sum := sha256.Sum256(diff)
	g := Gen{Gen: a.nextGen(), Parent: &head.Gen, DiffHash: hex.EncodeToString(sum[:]), Component: c.Component,
		Hypothesis: c.Hypothesis, TraceIDs: c.TraceIDs, Decision: "pending"}
	step := func(reason string) error { g.Reason = reason; return a.putGen(&g, false) }
	reject := func(reason string) error {
		g.Decision = "reject"
		fmt.Fprintf(a.Out, "generation %d rejected: %s\n", g.Gen, reason)
		return step(reason)
	}
	files, err := a.readSnapshot(head.Hash)
	if err = errors.Join(err, writeAtomic(a.path("diffs", g.DiffHash+".diff"), diff), step("step 1: diff checks")); err != nil {
		return err
	}
	if reason := checkDiff(diff, c.Component, manifest(files), files); reason != "" {
		return reject(reason)
	} else if err := step("step 3: task-string detector"); err != nil {
		return err
	} else if leak := a.leak(string(diff), files); leak != "" {
		return reject("task-specific string in the diff: " + leak)
	} else if err := step("step 4: apply and snapshot"); err != nil {
		return err
	}
	if g.Hash, err = a.applyDiff(head.Hash, diff); err != nil {
		return reject(err.Error())
	} else if g.Hash == head.Hash {
		return reject("no-op: the diff leaves the harness unchanged")
	}
	scores := map[string][2]**float64{"train": {&g.TrainPre, &g.TrainPost}, "holdout": {&g.HoldoutPre, &g.HoldoutPost}}
	for i, split := range []string{"train", "holdout"} {
		if err := step(fmt.Sprintf("step %d: evaluate on %s", 5+i, split)); err != nil {
			return err
		}
		for j, hash := range []string{head.Hash, g.Hash} {
			mean, runs, err := a.Evaluate(ctx, hash, split, false, true)
			if err != nil {
				return err // the row stays pending; the next apply marks it interrupted
			}
			*scores[split][j], g.Tokens = &mean, g.Tokens+tokens(runs)*int64(j)
		}
		if pre, post := **scores[split][0], **scores[split][1]; post <= pre {
			return reject(fmt.Sprintf("%s did not improve: %.3f -> %.3f (a tie rejects)", split, pre, post))
		}
	}
	g.Decision, g.Reason = "accept", fmt.Sprintf("train %.3f -> %.3f, holdout %.3f -> %.3f", *g.TrainPre, *g.TrainPost, *g.HoldoutPre, *g.HoldoutPost)
	if err := a.putGen(&g, true); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "generation %d accepted: %s\n", g.Gen, g.Reason)
	return a.refreshWorkingCopy(g.Hash, a.meta("harness_dir"))
}

// checkDiff applies steps 1 and 2 of the rule, reading the diff with git's
// own parser: one editable file, changed in place (no rename, copy, mode
// change, symlink, binary or deletion), and not rewritten whole. It returns
// a rejection reason, or "" when the diff passes.
func checkDiff(diff []byte, component string, editable []string, files map[string][]byte) string {
	cmd := gitApply(diff, "", "--numstat", "--summary")
	out, err := cmd.CombinedOutput()
	var touched []string
	removed := 0
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(l, "\t")
		switch {
		case err != nil || strings.TrimSpace(string(diff)) == "":
			return "the diff is empty or not a diff git can read: " + strings.TrimSpace(string(out))
		case strings.HasPrefix(l, " "):
			return "the diff changes more than file content: " + strings.TrimSpace(l)
		case len(f) != 3 || f[0] == "-":
			return "the diff changes a binary file: " + l
		case !filepath.IsLocal(f[2]):
			return fmt.Sprintf("the diff touches a path outside the harness: %q", f[2])
		}
		n, _ := strconv.Atoi(f[1])
		touched, removed = append(touched, f[2]), removed+n
	}
	n := strings.Count(string(files[component]), "\n")
	switch {
	case !slices.Contains(editable, component):
		return fmt.Sprintf("component %q is not listed in manifest.toml", component)
	case len(touched) != 1 || touched[0] != component:
		return fmt.Sprintf("the diff must touch exactly %s; it touches %s", component, strings.Join(touched, ", "))
	case n >= 10 && removed*5 >= n*4:
		return fmt.Sprintf("whole-file rewrite: the diff removes %d of %d lines", removed, n)
	}
	return ""
}

var quotedString = regexp.MustCompile(`"((?:[^"\\\n]|\\.){8,})"|` + "`([^`\n]{8,})`")
var moduleLine = regexp.MustCompile(`(?m)^module\s+(\S+)`)

// leak reports the first string of a train task found in an added line:
// task ids and module names (as whole tokens), and quoted strings of 8 or
// more characters from prompts and public tests. A string the incumbent
// harness already holds is vocabulary, not a leak.
func (a *Anchor) leak(diff string, incumbent map[string][]byte) string {
	var vocab, added strings.Builder
	for _, b := range incumbent {
		vocab.Write(b)
	}
	for _, l := range strings.Split(diff, "\n") {
		if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") {
			added.WriteString(l[1:] + "\n")
		}
	}
	tasks, _ := filepath.Glob(filepath.Join(a.Tasks, "train", "*", "task.toml"))
	for _, tt := range tasks {
		t, err := LoadTask(filepath.Dir(tt))
		repo, _ := readTree(filepath.Join(t.Dir, "repo"))
		if err != nil {
			continue
		}
		names, texts := []string{t.ID}, t.Prompt
		for f, b := range repo {
			if filepath.Base(f) == "go.mod" {
				for _, m := range moduleLine.FindAllStringSubmatch(string(b), -1) {
					names = append(names, m[1])
				}
			} else if strings.Contains(filepath.Base(f), "test") {
				texts += "\n" + string(b)
			}
		}
		var patterns [][2]string // a regexp, what it finds
		for _, n := range names {
			patterns = append(patterns, [2]string{`(^|[^\w./-])` + regexp.QuoteMeta(n) + `($|[^\w./-])`, n})
		}
		for _, m := range quotedString.FindAllStringSubmatch(texts, -1) {
			patterns = append(patterns, [2]string{regexp.QuoteMeta(m[1] + m[2]), m[1] + m[2]})
		}
		for _, p := range patterns {
			if re := regexp.MustCompile(p[0]); re.MatchString(added.String()) && !re.MatchString(vocab.String()) {
				return fmt.Sprintf("%q", p[1])
			}
		}
	}
	return ""
}

// applyDiff applies the diff with git apply to a scratch copy of the
// snapshot and stores the result. An error is a diff that does not apply.
func (a *Anchor) applyDiff(hash string, diff []byte) (string, error) {
	dir, err := os.MkdirTemp(a.path("tmp"), "apply-")
	defer os.RemoveAll(dir)
	if err == nil {
		err = a.extract(hash, dir)
	}
	if out, aerr := gitApply(diff, dir, "--whitespace=nowarn").CombinedOutput(); err == nil && aerr != nil {
		err = fmt.Errorf("the diff does not apply: %s", strings.TrimSpace(string(out)))
	}
	if err != nil {
		return "", err
	}
	return a.Snapshot(dir)
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// gitApply runs git apply on diff in dir, never inside a repository that
// happens to enclose dir.
func gitApply(diff []byte, dir string, flags ...string) *exec.Cmd {
	cmd := exec.Command("git", append(append([]string{"apply"}, flags...), "-")...)
	cmd.Dir, cmd.Stdin, cmd.Env = dir, bytes.NewReader(diff), append(os.Environ(), "GIT_DIR=/nonexistent")
	return cmd
}
