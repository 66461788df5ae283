package anchor

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
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
	Home, Tasks, API, URL, ModelName, Options, Keep, key string
	Jobs                                                 int
	Budget                                               int64
	Out                                                  io.Writer
	db                                                   *sql.DB
	buildMu, warmMu                                      sync.Mutex
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
	fs.StringVar(&a.Keep, "keep", "", "") // run: copy the agent's final tree here
	jobs, _ := strconv.Atoi(env("ANCHOR_JOBS", strconv.Itoa(runtime.NumCPU())))
	budget, _ := strconv.ParseInt(env("ANCHOR_BUDGET", "100000"), 10, 64)
	fs.IntVar(&a.Jobs, "jobs", jobs, "")
	fs.Int64Var(&a.Budget, "budget", budget, "")
	harness, task, split := fs.String("harness", "", ""), fs.String("task", "", ""), fs.String("split", "", "")
	candidate, force := fs.String("candidate", "", ""), fs.Bool("force", false, "")
	asJSON, failed := fs.Bool("json", false, ""), fs.Bool("failed", false, "")
	if err := fs.Parse(args[1:]); err != nil {
		return fmt.Errorf("%v; %s", err, usage)
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
	switch gen, err := strconv.Atoi(fs.Arg(0)); args[0] {
	case "init":
		return a.Init(ctx, *harness)
	case "apply":
		return a.Apply(ctx, *candidate)
	case "log":
		return a.Log(*asJSON)
	case "snapshot":
		hash, err := a.Snapshot(fs.Arg(0)) // "" on error
		fmt.Fprint(out, hash, map[bool]string{true: "\n"}[hash != ""])
		return err
	case "rollback":
		if fs.NArg() != 1 || err != nil {
			return errors.New("usage: anchor rollback GEN (a generation number from anchor log)")
		}
		return a.Rollback(ctx, gen)
	case "run", "traces", "eval":
	default:
		return errors.New(usage)
	}
	hash, err := a.resolveHarness(cmp(*harness, "head"))
	var v any
	switch {
	case err != nil:
	case args[0] == "run":
		v, err = a.RunTask(ctx, hash, *task, *force)
	case args[0] == "traces":
		v, err = scan(a.db, (*Run).fields, `SELECT `+runCols+` FROM runs r WHERE split = 'train' AND harness_hash = ? AND model = ? AND score < ? AND created_at =
			(SELECT MAX(created_at) FROM runs WHERE task_id = r.task_id AND split = 'train' AND harness_hash = r.harness_hash AND model = r.model)
			ORDER BY task_id`, hash, a.Model(), map[bool]float64{true: 1, false: 2}[*failed])
	default:
		mean, runs, _, eerr := a.Evaluate(ctx, hash, *split, *force)
		if v, err = map[string]any{"harness_hash": hash, "split": *split, "model": a.Model(), "mean": mean, "tasks": runs}, eerr; !*asJSON && err == nil {
			_, err = fmt.Fprintf(out, "%s mean %.3f over %d tasks\n", *split, mean, len(runs))
			return err
		}
	}
	if err != nil {
		return err
	}
	return json.NewEncoder(out).Encode(v)
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

func (a *Anchor) path(elem ...string) string {
	return filepath.Join(append([]string{a.Home}, elem...)...)
}

// The ledger: seed 004's four tables, plus meta for the frozen model and
// the harness working copy. runs.error is empty for a run that happened as
// intended; only such runs are served from the cache.
const schema = `
CREATE TABLE IF NOT EXISTS runs(id TEXT PRIMARY KEY, harness_hash TEXT, task_hash TEXT, task_id TEXT, split TEXT, model TEXT, score REAL, passed INTEGER, total INTEGER, tokens_in INTEGER, tokens_out INTEGER, wall_ms INTEGER, exit_code INTEGER, trace_path TEXT, error TEXT NOT NULL DEFAULT '', created_at TEXT);
CREATE INDEX IF NOT EXISTS runs_key ON runs(harness_hash, task_hash, model);
CREATE TABLE IF NOT EXISTS evals(id INTEGER PRIMARY KEY, harness_hash TEXT, split TEXT, model TEXT, score REAL, n_tasks INTEGER, cached INTEGER, created_at TEXT);
CREATE TABLE IF NOT EXISTS generations(gen INTEGER PRIMARY KEY, parent_gen INTEGER, harness_hash TEXT, diff_hash TEXT, component TEXT, hypothesis TEXT, trace_ids TEXT, decision TEXT, reason TEXT, train_pre REAL, train_post REAL, holdout_pre REAL, holdout_post REAL, tokens INTEGER, created_at TEXT);
CREATE TABLE IF NOT EXISTS head(id INTEGER PRIMARY KEY CHECK (id = 1), gen INTEGER);
CREATE TRIGGER IF NOT EXISTS head_moves AFTER INSERT ON generations WHEN NEW.decision IN ('baseline', 'accept', 'rollback')
  BEGIN INSERT OR REPLACE INTO head(id, gen) VALUES(1, NEW.gen); END;
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);`

func (a *Anchor) open() error {
	var err error
	for _, d := range []string{"snapshots", "traces", "builds", "diffs", "tmp"} {
		err = errors.Join(err, os.MkdirAll(a.path(d), 0o755))
	}
	db, oerr := sql.Open("sqlite", a.path("ledger.db")+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(FULL)")
	if err = errors.Join(err, oerr); err == nil {
		db.SetMaxOpenConns(1)
		_, err = db.Exec(schema)
	}
	if a.db = db; err != nil {
		err = fmt.Errorf("open the ledger in %s: %w; check --home / ANCHOR_HOME", a.Home, err)
	}
	return err
}

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }

// put inserts or replaces a row; fields point at its values, in cols order.
func put(db *sql.DB, table, cols string, fields ...any) error {
	_, err := db.Exec(`INSERT OR REPLACE INTO `+table+`(`+cols+`) VALUES(?`+strings.Repeat(",?", len(fields)-1)+`)`, fields...)
	return err
}

// scan reads rows into values of T through fields, which points at them.
func scan[T any](db *sql.DB, fields func(*T) []any, q string, args ...any) ([]T, error) {
	rows, err := db.Query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		var v T
		if err := rows.Scan(fields(&v)...); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// jsonText is JSON kept as TEXT in the ledger and shown as JSON.
type jsonText string

func (j jsonText) MarshalJSON() ([]byte, error) { return []byte(cmp(string(j), "null")), nil }

// Gen is one generations row. Like go list -json, anchor log --json names
// fields as Go does; the ledger's columns are in genCols.
type Gen struct {
	Gen                                                                int
	Parent                                                             *int
	Hash, DiffHash, Component, Hypothesis, Decision, Reason, CreatedAt string
	TraceIDs                                                           jsonText
	TrainPre, TrainPost, HoldoutPre, HoldoutPost                       *float64
	Tokens                                                             int64
	Head                                                               bool
}

const genCols = `gen, parent_gen, harness_hash, diff_hash, component, hypothesis, trace_ids, decision, reason, train_pre, train_post, holdout_pre, holdout_post, tokens, created_at`

func (g *Gen) fields() []any {
	return []any{&g.Gen, &g.Parent, &g.Hash, &g.DiffHash, &g.Component, &g.Hypothesis, &g.TraceIDs, &g.Decision, &g.Reason,
		&g.TrainPre, &g.TrainPost, &g.HoldoutPre, &g.HoldoutPost, &g.Tokens, &g.CreatedAt}
}

// putGen writes a generation row. Apply calls it after every step (I4); a
// row whose decision is baseline, accept or rollback moves the head with it,
// in the same statement (the head_moves trigger).
func (a *Anchor) putGen(g *Gen) error {
	g.CreatedAt = now()
	return put(a.db, "generations", genCols, g.fields()...)
}

func (a *Anchor) gens(where string, args ...any) ([]Gen, error) {
	return scan(a.db, func(g *Gen) []any { return append(g.fields(), &g.Head) },
		`SELECT `+genCols+`, gen = (SELECT gen FROM head) FROM generations `+where+` ORDER BY gen`, args...)
}

// head returns the current head generation.
func (a *Anchor) head() (Gen, error) {
	gs, err := a.gens(`WHERE gen = (SELECT gen FROM head)`)
	if err == nil && len(gs) == 0 {
		err = errors.New("this ledger has no head yet; run `anchor init --harness harness` first")
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
	f := func(c string) string { return "iif(" + c + " IS NULL, '-', printf('%.3f', " + c + "))" }
	rows, err := a.db.Query(`SELECT printf('%3d%s %-11s train %5s -> %5s  holdout %5s -> %5s  %-26s %s', gen, iif(gen = (SELECT gen FROM head), ' *', '  '), decision, ` +
		f("train_pre") + `, ` + f("train_post") + `, ` + f("holdout_pre") + `, ` + f("holdout_post") + `, component, reason) FROM generations ORDER BY gen`)
	for line := ""; err == nil && rows.Next(); fmt.Fprintln(a.Out, line) {
		err = rows.Scan(&line)
	}
	return err
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
		mean, _, tokens, err := a.Evaluate(ctx, g.Hash, map[bool]string{true: "train", false: "holdout"}[dst == &g.TrainPost], false)
		if err != nil {
			return err
		}
		*dst, g.Tokens = &mean, g.Tokens+tokens
	}
	if err := a.putGen(g); err != nil {
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
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	diff, derr := os.ReadFile(filepath.Join(map[bool]string{false: filepath.Dir(path)}[filepath.IsAbs(c.Diff)], c.Diff)) // "" reads a folder: an error
	if err = errors.Join(err, derr); err != nil || c.Component == "" {
		return fmt.Errorf("read candidate %q: want JSON {diff, component, hypothesis, trace_ids} (%s); nothing was recorded", path, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	head, err := a.head()
	if err = errors.Join(err, a.frozenModel()); err != nil {
		return err
	}
	sum := sha256.Sum256(diff)
	ids, _ := json.Marshal(c.TraceIDs)
	g := Gen{Gen: a.nextGen(), Parent: &head.Gen, DiffHash: hex.EncodeToString(sum[:]), Component: c.Component,
		Hypothesis: c.Hypothesis, TraceIDs: jsonText(ids), Decision: "pending"}
	reject := func(reason string) error {
		g.Decision, g.Reason = "reject", reason
		fmt.Fprintf(a.Out, "generation %d rejected: %s\n", g.Gen, reason)
		return a.putGen(&g)
	}
	files, err := a.readSnapshot(head.Hash)
	if err = errors.Join(err, os.WriteFile(a.path("diffs", g.DiffHash+".diff"), diff, 0o644)); err != nil {
		return err
	}
	scores := map[string][2]**float64{"train": {&g.TrainPre, &g.TrainPost}, "holdout": {&g.HoldoutPre, &g.HoldoutPost}}
	compare := func(split string) (string, error) {
		for j, hash := range []string{head.Hash, g.Hash} {
			mean, _, tokens, err := a.Evaluate(ctx, hash, split, false)
			if err != nil {
				return "", err // the row stays pending; the next apply marks it interrupted
			}
			*scores[split][j], g.Tokens = &mean, g.Tokens+tokens*int64(j)
		}
		if pre, post := **scores[split][0], **scores[split][1]; post <= pre+1e-9 { // rounding never passes for a gain
			return fmt.Sprintf("%s did not improve: %.3f -> %.3f (a tie rejects)", split, pre, post), nil
		}
		return "", nil
	}
	for _, s := range []struct {
		name  string
		check func() (string, error)
	}{
		{"step 1: diff checks", func() (string, error) { return checkDiff(diff, c.Component, manifest(files), files), nil }},
		{"step 3: task-string detector", func() (string, error) { return a.leak(string(diff), files), nil }},
		{"step 4: apply and snapshot", func() (string, error) { return a.applyDiff(&g, head.Hash, diff), nil }},
		{"step 5: evaluate on train", func() (string, error) { return compare("train") }},
		{"step 6: evaluate on holdout", func() (string, error) { return compare("holdout") }},
	} {
		g.Reason = s.name
		if err := a.putGen(&g); err != nil {
			return err
		}
		if reason, err := s.check(); err != nil {
			return err
		} else if reason != "" {
			return reject(reason)
		}
	}
	g.Decision, g.Reason = "accept", fmt.Sprintf("train %.3f -> %.3f, holdout %.3f -> %.3f", *g.TrainPre, *g.TrainPost, *g.HoldoutPre, *g.HoldoutPost)
	if err := a.putGen(&g); err != nil {
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
	out, err := gitApply(diff, "", "--numstat", "--summary").CombinedOutput()
	touched, removed := []string{}, 0
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(l, "\t")
		switch {
		case err != nil:
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
	switch n := strings.Count(string(files[component]), "\n"); {
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
	vocab := string(bytes.Join(slices.Collect(maps.Values(incumbent)), nil))
	var added strings.Builder
	for _, l := range strings.Split(diff, "\n") {
		if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") {
			added.WriteString(l[1:] + "\n")
		}
	}
	tasks, _ := filepath.Glob(filepath.Join(a.Tasks, "train", "*", "task.toml"))
	for _, tt := range tasks {
		t, _ := LoadTask(filepath.Dir(tt))
		repo, _ := ReadTree(filepath.Join(t.Dir, "repo"), true)
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
		for _, m := range quotedString.FindAllStringSubmatch(texts, -1) {
			names = append(names, m[1]+m[2])
		}
		for _, n := range names {
			re := regexp.MustCompile(`(^|[^\w./-])` + regexp.QuoteMeta(n) + `($|[^\w./-])`)
			if re.MatchString(added.String()) && !re.MatchString(vocab) {
				return fmt.Sprintf("task-specific string in the diff: %q", n)
			}
		}
	}
	return ""
}

// applyDiff applies the diff with git apply to a scratch copy of the
// snapshot and stores the result as g's harness. It returns a rejection
// reason: a diff that does not apply, or one that changes nothing.
func (a *Anchor) applyDiff(g *Gen, hash string, diff []byte) string {
	dir := a.path("tmp", "apply-"+rand.Text())
	defer os.RemoveAll(dir)
	files, err := a.readSnapshot(hash)
	if err == nil {
		err = WriteTree(dir, files)
	}
	if out, aerr := gitApply(diff, dir, "--whitespace=nowarn").CombinedOutput(); err == nil && aerr != nil {
		err = fmt.Errorf("the diff does not apply: %s", strings.TrimSpace(string(out)))
	}
	if err == nil {
		g.Hash, err = a.Snapshot(dir)
	}
	if err != nil {
		return err.Error()
	} else if g.Hash == hash {
		return "no-op: the diff leaves the harness unchanged"
	}
	return ""
}

// gitApply runs git apply on diff in dir, never inside a repository that
// happens to enclose dir.
func gitApply(diff []byte, dir string, flags ...string) *exec.Cmd {
	cmd := exec.Command("git", append(append([]string{"apply"}, flags...), "-")...)
	cmd.Dir, cmd.Stdin, cmd.Env = dir, bytes.NewReader(diff), append(os.Environ(), "GIT_DIR=/nonexistent")
	return cmd
}

// Task is one task folder: task.toml, repo/, hidden/, reference/.
type Task struct {
	Dir, ID, Split, Prompt, Test, JUnit string
	Timeout                             time.Duration
}

var tomlPair = regexp.MustCompile(`(?ms)^[ \t]*(\w+)[ \t]*=[ \t]*(?:"""\n?(.*?)"""|'''\n?(.*?)'''|"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)')`)

// LoadTask reads a task folder. task.toml holds string keys only: basic
// (with escapes), literal, and multi-line (taken verbatim) strings. The
// split is the name of the folder the task is in.
func LoadTask(dir string) (Task, error) {
	abs, _ := filepath.Abs(dir)
	t := Task{Dir: abs, ID: filepath.Base(abs), Split: filepath.Base(filepath.Dir(abs)), Timeout: 10 * time.Minute}
	b, err := os.ReadFile(filepath.Join(abs, "task.toml"))
	vals := map[string]string{}
	for _, m := range tomlPair.FindAllStringSubmatch(string(b), -1) {
		v := m[2] + m[3] + m[5]
		if m[4] != "" && json.Unmarshal([]byte(`"`+m[4]+`"`), &v) != nil {
			err = fmt.Errorf("bad string for %s", m[1])
		}
		vals[m[1]] = v
	}
	t.Prompt, t.Test, t.JUnit = vals["prompt"], vals["test"], vals["junit"]
	if err == nil && (t.Prompt == "" || t.Test == "") {
		err = errors.New("task.toml needs prompt and test strings")
	}
	if s := vals["timeout"]; err == nil && s != "" {
		t.Timeout, err = time.ParseDuration(s)
	}
	if err != nil {
		err = fmt.Errorf("task %s: %w (see tasks/README.md for the format)", dir, err)
	}
	return t, err
}

// ScoreCommand is the test command as scoring runs it: go test reports JSON.
func (t Task) ScoreCommand() string {
	if rest, ok := strings.CutPrefix(strings.TrimSpace(t.Test), "go test"); ok && !strings.Contains(rest, "-json") {
		return "go test -json" + rest
	}
	return t.Test
}

var junitCase, junitBad = regexp.MustCompile(`<testcase[\s>/]`), regexp.MustCompile(`<(failure|error|skipped)[\s>/]`)
var testFunc = regexp.MustCompile(`(?m)^func (Test\w*)\(\w+ \*testing\.T\)`)

// Score counts passed and total tests from the scoring run: go test -json
// events, a JUnit XML report, or the exit status. Skips never pass, every
// Go test in hidden/ must report (so a planted TestMain or a broken build
// cannot pass), and a suite that never ran is one failure.
func Score(t Task, out []byte, exit int, report []byte) (passed, total int) {
	switch {
	case t.JUnit != "": // a <testcase> holding <failure>, <error> or <skipped> did not pass
		total = len(junitCase.FindAll(report, -1))
		passed = max(total-len(junitBad.FindAll(report, -1)), 0)
	case strings.Contains(t.ScoreCommand(), "go test -json"):
		final, ran, seen := map[string]string{}, map[string]bool{}, map[string]bool{}
		for _, line := range strings.Split(string(out), "\n") {
			var e struct{ Action, Package, Test string }
			if json.Unmarshal([]byte(line), &e) != nil || (e.Action != "pass" && e.Action != "fail" && e.Action != "skip") {
				continue
			}
			final[e.Package+" "+e.Test], ran[e.Package], seen[e.Test] = e.Action, ran[e.Package] || e.Test != "", true
		}
		for k, a := range final {
			pkg, test, _ := strings.Cut(k, " ")
			if test != "" || (a == "fail" && !ran[pkg]) { // a package that failed before any test ran counts once
				total++
				passed += map[bool]int{true: 1}[a == "pass"]
			}
		}
		hidden, _ := ReadTree(filepath.Join(t.Dir, "hidden"), true)
		for f, b := range hidden {
			for _, m := range testFunc.FindAllStringSubmatch(string(b), -1) {
				if strings.HasSuffix(f, "_test.go") && !seen[m[1]] {
					total++ // a hidden test that never reported did not run
				}
			}
		}
	case exit == 0:
		passed, total = 1, 1
	}
	if exit != 0 && passed == total {
		total++ // the command failed for a reason no test reported
	}
	return passed, max(total, 1)
}

// Run is one runs row: a harness on a task under a model.
type Run struct {
	ID          string  `json:"id"`
	HarnessHash string  `json:"harness_hash"`
	TaskHash    string  `json:"task_hash"`
	TaskID      string  `json:"task_id"`
	Split       string  `json:"split"`
	Model       string  `json:"model"`
	Score       float64 `json:"score"`
	Passed      int     `json:"passed"`
	Total       int     `json:"total"`
	TokensIn    int64   `json:"tokens_in"`
	TokensOut   int64   `json:"tokens_out"`
	WallMS      int64   `json:"wall_ms"`
	ExitCode    int     `json:"exit_code"`
	TracePath   string  `json:"trace_path"`
	Error       string  `json:"error"`
	CreatedAt   string  `json:"created_at"`
	Cached      bool    `json:"cached"`
}

const runCols = `id, harness_hash, task_hash, task_id, split, model, score, passed, total, tokens_in, tokens_out, wall_ms, exit_code, trace_path, error, created_at`

func (r *Run) fields() []any {
	return []any{&r.ID, &r.HarnessHash, &r.TaskHash, &r.TaskID, &r.Split, &r.Model, &r.Score, &r.Passed, &r.Total,
		&r.TokensIn, &r.TokensOut, &r.WallMS, &r.ExitCode, &r.TracePath, &r.Error, &r.CreatedAt}
}

// RunTask runs harness hash on the task in dir, or returns the cached run
// for (harness, task, model). Runs that errored or timed out are recorded
// but never served from the cache.
func (a *Anchor) RunTask(ctx context.Context, hash, dir string, force bool) (Run, error) {
	t, err := LoadTask(dir)
	task, herr := ReadTree(t.Dir, true)
	th := HashOf(task)
	cached, qerr := scan(a.db, (*Run).fields, `SELECT `+runCols+` FROM runs WHERE harness_hash = ? AND task_hash = ? AND model = ? AND error = ''
		ORDER BY created_at DESC LIMIT 1`, hash, th, a.Model())
	if err = errors.Join(err, herr, qerr); err != nil || (len(cached) == 1 && !force) {
		c := append(cached, Run{})[0]
		c.Cached = err == nil
		return c, err
	}
	r := Run{ID: strings.ToLower(rand.Text()[:16]), HarnessHash: hash, TaskHash: th, TaskID: t.ID, Split: t.Split, Model: a.Model(), CreatedAt: now()}
	r.TracePath, _ = filepath.Abs(a.path("traces", r.ID+".jsonl"))
	start := time.Now()
	a.attempt(ctx, t, &r)
	r.WallMS, r.Score = time.Since(start).Milliseconds(), float64(r.Passed)/float64(r.Total)
	return r, errors.Join(put(a.db, "runs", runCols, r.fields()...), ctx.Err())
}

// attempt fills in r: build, agent sandbox, scoring sandbox. What goes
// wrong with the harness is written into r, not returned.
func (a *Anchor) attempt(ctx context.Context, t Task, r *Run) {
	r.ExitCode, r.Total = -1, 1
	tmp, err := os.MkdirTemp(a.path("tmp"), r.ID+"-")
	defer os.RemoveAll(tmp)
	work, sock := filepath.Join(tmp, "work"), filepath.Join(tmp, "model.sock")
	var bin, cache string
	var proxy *Proxy
	files := map[string][]byte{"prompt.txt": []byte(t.Prompt), "test.txt": []byte(t.Test + "\n"), "trace.jsonl": nil}
	for _, step := range []func(){
		func() { bin, err = a.build(r.HarnessHash) },
		func() { err = copyTree(filepath.Join(t.Dir, "repo"), filepath.Join(work, "task")) },
		func() { err = WriteTree(work, files) },
		func() { cache, err = a.cacheCopy(tmp, "agent-cache") },
		func() { proxy, err = StartProxy(sock, a.API, a.URL, a.ModelName, a.key, a.Budget) },
	} {
		if err == nil {
			step()
		}
	}
	if err != nil {
		r.Error = err.Error()
		return
	}
	box := Box{Work: work, Cache: cache, Timeout: t.Timeout, Harness: bin, Socket: sock, Args: []string{"/opt/harness", "/work"},
		Env: []string{"MODEL_API", a.API, "MODEL_NAME", a.ModelName, "MODEL_OPTIONS", a.Options}}
	code, out, timedOut, err := box.Run(ctx)
	proxy.Close()
	r.TokensIn, r.TokensOut = proxy.Used()
	r.ExitCode = code
	os.Rename(filepath.Join(work, "trace.jsonl"), r.TracePath)
	if a.Keep != "" {
		defer copyTree(filepath.Join(work, "task"), a.Keep)
	}
	switch {
	case err != nil || ctx.Err() != nil:
		r.Error = errors.Join(err, ctx.Err()).Error()
		return
	case timedOut:
		r.Error = fmt.Sprintf("agent run timed out after %s", t.Timeout)
	case code != 0:
		r.Error = fmt.Sprintf("harness exited with status %d: %s", code, strings.TrimSpace(string(out[max(0, len(out)-300):])))
	}
	// Score what the agent left even after a timeout; such runs are still
	// never served from the cache.
	a.score(ctx, t, work, tmp, r)
}

// score runs the task's tests in a fresh sandbox on the agent's final tree
// with hidden/ overlaid. A report file the agent left is dropped first, and
// the report is read through os.Root, so a link cannot lead the reading out.
func (a *Anchor) score(ctx context.Context, t Task, work, tmp string, r *Run) {
	r.Passed, r.Total = 0, 1
	dir := filepath.Join(tmp, "score")
	files, err := ReadTree(filepath.Join(work, "task"), false)
	if hidden, herr := ReadTree(filepath.Join(t.Dir, "hidden"), false); !errors.Is(herr, fs.ErrNotExist) {
		err = errors.Join(err, herr)
		maps.Copy(files, hidden)
	}
	delete(files, filepath.ToSlash(filepath.Clean(t.JUnit)))
	cache, cerr := a.cacheCopy(tmp, "score-cache")
	code, out, timedOut := 0, []byte(nil), false
	if err = errors.Join(err, cerr, WriteTree(filepath.Join(dir, "task"), files)); err == nil {
		box := Box{Work: dir, Cache: cache, Dir: "/work/task", Timeout: max(t.Timeout, 5*time.Minute), Args: []string{"sh", "-c", t.ScoreCommand()}}
		code, out, timedOut, err = box.Run(ctx)
	}
	if timedOut {
		err = errors.New("timed out")
	}
	if err != nil {
		r.Error = strings.TrimPrefix(r.Error+"; scoring: "+err.Error(), "; ")
		return
	}
	var rep []byte
	if root, err := os.OpenRoot(filepath.Join(dir, "task")); err == nil && t.JUnit != "" {
		rep, _ = root.ReadFile(t.JUnit)
	}
	r.Passed, r.Total = Score(t, out, code, rep)
}

// Evaluate runs every task of a split, --jobs at a time, through the run
// cache, records an evals row and returns the mean score. It reports each
// task on stderr as it finishes.
func (a *Anchor) Evaluate(ctx context.Context, hash, split string, force bool) (mean float64, runs []Run, tokens int64, err error) {
	dirs, _ := filepath.Glob(filepath.Join(a.Tasks, split, "*", "task.toml"))
	if err := a.frozenModel(); err != nil {
		return 0, nil, 0, err
	} else if split != "train" && split != "holdout" && split != "sealed" || len(dirs) == 0 {
		return 0, nil, 0, fmt.Errorf("no tasks in %s; --split is train, holdout or sealed, and --tasks / ANCHOR_TASKS a suite with <split>/<id>/task.toml", filepath.Join(a.Tasks, split))
	}
	runs, errs := make([]Run, len(dirs)), make([]error, len(dirs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, a.Jobs)
	for i, d := range dirs {
		wg.Go(func() {
			sem <- struct{}{}
			r, err := a.RunTask(ctx, hash, filepath.Dir(d), force)
			<-sem
			if runs[i], errs[i] = r, err; err == nil { // one write to stderr per task
				fmt.Fprintf(os.Stderr, "%-28s %5.3f %3d/%-3d %7d tokens  cached=%-5v %s\n", r.TaskID, r.Score, r.Passed, r.Total, r.TokensIn+r.TokensOut, r.Cached, r.Error)
			}
		})
	}
	wg.Wait()
	cached := 0
	for _, r := range runs {
		mean, cached, tokens = mean+r.Score, cached+map[bool]int{true: 1}[r.Cached], tokens+r.TokensIn+r.TokensOut
	}
	mean /= float64(len(dirs)) // summed in task order, so equal scores give equal means
	if err := errors.Join(errs...); err != nil {
		return 0, runs, 0, err
	}
	fmt.Fprintf(os.Stderr, "%s mean %.3f over %d tasks (%d from the cache)\n", split, mean, len(dirs), cached)
	return mean, runs, tokens, put(a.db, "evals", "harness_hash, split, model, score, n_tasks, cached, created_at", hash, split, a.Model(), mean, len(dirs), cached, now())
}

// maxTree caps the bytes of a tree the anchor reads.
var maxTree = 1 << 30

// ReadTree reads the regular files under dir by slash-separated path. For
// snapshots and tasks (strict) a symlink or special file is an error and
// dot-entries are skipped. For an agent's tree, symlinks are skipped, never
// followed, and special files are refused.
func ReadTree(dir string, strict bool) (map[string][]byte, error) {
	files, size := map[string][]byte{}, 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, p)
		switch {
		case err != nil:
			return err
		case strict && p != dir && strings.HasPrefix(d.Name(), "."):
			return map[bool]error{true: filepath.SkipDir}[d.IsDir()]
		case d.IsDir() || !strict && d.Type()&fs.ModeSymlink != 0:
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("refusing %s: not a regular file", p)
		case size > maxTree:
			return fmt.Errorf("refusing %s: more than %d bytes", dir, maxTree)
		}
		files[filepath.ToSlash(rel)], err = os.ReadFile(p)
		size += len(files[filepath.ToSlash(rel)])
		return err
	})
	return files, err
}

// copyTree copies src into dst, over what is there (see ReadTree).
func copyTree(src, dst string) error {
	files, err := ReadTree(src, false)
	return errors.Join(err, WriteTree(dst, files))
}

// HashOf is the sha256 of the deterministic tar of files: sorted paths,
// zero mtimes, fixed modes, no owners. It names a snapshot or a task.
func HashOf(files map[string][]byte) string {
	h := sha256.New()
	tw := tar.NewWriter(h)
	for _, f := range slices.Sorted(maps.Keys(files)) {
		tw.WriteHeader(&tar.Header{Name: f, Mode: 0o644, Size: int64(len(files[f])), Typeflag: tar.TypeReg, Format: tar.FormatPAX})
		tw.Write(files[f])
	}
	tw.Close()
	return hex.EncodeToString(h.Sum(nil))
}

// WriteTree writes files under dst; a script (#!) is made executable.
func WriteTree(dst string, files map[string][]byte) (err error) {
	for name, b := range files {
		p := filepath.Join(dst, name)
		os.Remove(p) // replace, never write through a link
		err = errors.Join(err, os.MkdirAll(filepath.Dir(p), 0o755), os.WriteFile(p, b, map[bool]os.FileMode{true: 0o755, false: 0o644}[bytes.HasPrefix(b, []byte("#!"))]))
	}
	return err
}

// Snapshot stores the files of dir in snapshots/<hash>, hash being their
// sha256 (HashOf), and returns the hash.
func (a *Anchor) Snapshot(dir string) (string, error) {
	files, err := ReadTree(dir, true)
	hash, tmp := HashOf(files), a.path("tmp", "snap-"+rand.Text())
	defer os.RemoveAll(tmp)
	if _, serr := os.Stat(a.path("snapshots", hash)); err == nil && serr != nil {
		err = errors.Join(WriteTree(tmp, files), os.Rename(tmp, a.path("snapshots", hash)))
	}
	if err != nil {
		return "", fmt.Errorf("snapshot %s: %w; point it at the harness folder", dir, err)
	}
	return hash, nil
}

// resolveHarness turns a folder, a stored snapshot's hash or "head" into a
// stored snapshot's hash.
func (a *Anchor) resolveHarness(arg string) (string, error) {
	if st, err := os.Stat(arg); err == nil && st.IsDir() {
		return a.Snapshot(arg)
	} else if arg == "head" {
		h, err := a.head()
		return h.Hash, err
	} else if _, err := os.Stat(a.path("snapshots", arg)); err != nil || !filepath.IsLocal(arg) {
		return "", fmt.Errorf("--harness %q is neither a folder nor a stored snapshot hash; pass the harness folder or a hash from anchor log --json", arg)
	}
	return arg, nil
}

// readSnapshot returns the files of a stored snapshot, checked against its
// hash, so that a snapshot changed on disk is never used.
func (a *Anchor) readSnapshot(hash string) (map[string][]byte, error) {
	files, err := ReadTree(a.path("snapshots", hash), true)
	if err != nil || HashOf(files) != hash {
		return nil, fmt.Errorf("snapshot %s is missing or no longer matches its hash (%v); snapshot the harness again", hash, err)
	}
	return files, nil
}

// refreshWorkingCopy makes dir hold exactly snapshot hash. If it fails
// half way the ledger is still right, and a rollback to the head redoes it.
func (a *Anchor) refreshWorkingCopy(hash, dir string) error {
	files, err := a.readSnapshot(hash)
	if err == nil && dir != "" {
		err = errors.Join(os.RemoveAll(dir), WriteTree(dir, files))
	}
	if err != nil {
		err = fmt.Errorf("refresh %s: %w; the ledger is right: run anchor rollback with the head generation to retry", dir, err)
	}
	return err
}

var manifestList, quoted, comment = regexp.MustCompile(`editable\s*=\s*\[([^\]]*)\]`), regexp.MustCompile(`"([^"\n]+)"`), regexp.MustCompile(`#.*`)

// manifest reads the editable list of harness/manifest.toml: the quoted
// strings inside editable = [ ... ], comments stripped. Nothing else.
func manifest(files map[string][]byte) (out []string) {
	text := append(comment.ReplaceAll(files["manifest.toml"], nil), "\neditable = []"...) // no list: nothing is editable
	for _, q := range quoted.FindAllSubmatch(manifestList.FindSubmatch(text)[1], -1) {
		out = append(out, string(q[1]))
	}
	return out
}

// build compiles a stored snapshot offline, once per hash. A snapshot
// that does not compile yields the compiler's message as an error.
func (a *Anchor) build(hash string) (string, error) {
	a.buildMu.Lock()
	defer a.buildMu.Unlock()
	bin, _ := filepath.Abs(a.path("builds", hash))
	cache, _ := filepath.Abs(a.path("cache", "build"))
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	} else if _, err := a.readSnapshot(hash); err != nil {
		return "", err
	} else if out, err := goCmd(a.path("snapshots", hash), cache, "build", "-trimpath", "-o", bin+".tmp", "."); err != nil {
		return "", fmt.Errorf("harness does not build: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return bin, os.Rename(bin+".tmp", bin)
}

// goCmd runs the anchor's own go command, offline.
func goCmd(dir, cache string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off", "GOFLAGS=-mod=readonly", "GOCACHE="+cache)
	return cmd.CombinedOutput()
}

// warmSource is compiled once into a trusted build cache of which every
// sandbox gets a private copy: no test run rebuilds the standard library,
// and no run can poison another's cache.
const warmSource = `package warm; import (_ "bufio"; _ "bytes"; _ "container/heap"; _ "encoding/json"; _ "errors"; _ "fmt"; _ "io"; _ "math"; _ "os"; _ "regexp"; _ "sort"; _ "strconv"; _ "strings"; _ "sync"; _ "time"; _ "unicode"; "testing"); func TestWarm(t *testing.T) {}`

func (a *Anchor) cacheCopy(tmp, name string) (string, error) {
	a.warmMu.Lock()
	warm, _ := filepath.Abs(a.path("cache", "warm"))
	_, err := os.Stat(filepath.Join(warm, "ready"))
	if src := a.path("tmp", "warm-"+rand.Text()); err != nil {
		defer os.RemoveAll(src)
		WriteTree(src, map[string][]byte{"go.mod": []byte("module warm\n"), "warm_test.go": []byte(warmSource)})
		if out, gerr := goCmd(src, warm, "test", "-count=1", "."); gerr != nil {
			err = fmt.Errorf("warm the build cache: %v: %s", gerr, out)
		} else {
			err = os.WriteFile(filepath.Join(warm, "ready"), nil, 0o644)
		}
	}
	a.warmMu.Unlock()
	dst := filepath.Join(tmp, name)
	return dst, errors.Join(err, copyTree(warm, dst))
}
