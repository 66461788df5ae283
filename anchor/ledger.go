package anchor

import (
	"database/sql"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "modernc.org/sqlite"
)

// The ledger (docs/ARCHITECTURE.md, "An apply"): four tables with the
// gate's evidence beside them, plus meta for what is frozen per ledger
// (model, repeats, alpha) and the harness working copy. runs.outcome says
// whose a run was: ok, timeout, crash, build, forged and scoring are the
// harness's, and served from the cache; infra is the machine's, never a
// score and never cached.
// runs.error is free text (the harness's own last output): for holdout and
// sealed runs only the outcome may leave the ledger.
//
//go:embed schema.sql
var schema string

func (a *Anchor) open() error {
	for _, d := range []string{"snapshots", "traces", "reports", "builds", "diffs", "tmp"} {
		if err := os.MkdirAll(a.path(d), 0o755); err != nil {
			return fmt.Errorf("create the ledger folder %s: %w; check --home / ANCHOR_HOME", a.Home, err)
		}
	}
	db, err := sql.Open("sqlite", a.path("ledger.db")+
		"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(FULL)")
	if err != nil {
		return fmt.Errorf("open the ledger in %s: %w", a.Home, err)
	}
	a.sweep()
	db.SetMaxOpenConns(1)
	a.db = db
	tables, upgrades, _ := strings.Cut(schema, "-- upgrades")
	if _, err := db.Exec(tables); err != nil {
		return fmt.Errorf("open the ledger in %s: %w", a.Home, err)
	}
	for _, stmt := range strings.Split(upgrades, ";") {
		_, err := db.Exec(stmt)
		if err != nil && strings.TrimSpace(stmt) != "" && !strings.Contains(err.Error(), "duplicate column") {
			return fmt.Errorf("upgrade the ledger in %s: %w", a.Home, err)
		}
	}
	return nil
}

// now is a timestamp of fixed width (UTC, nine fractional digits), so that
// ordering the text orders the times; the upgrades pad older ones alike.
func now() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000000000Z") }

// put inserts or replaces a row; fields point at its values, in cols order.
func put(db *sql.DB, table, cols string, fields ...any) error {
	marks := strings.Repeat(",?", len(fields))[1:]
	_, err := db.Exec(`INSERT OR REPLACE INTO `+table+`(`+cols+`) VALUES(`+marks+`)`, fields...)
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

// Gen is one generations row (see the schema for what each field means).
type Gen struct {
	Gen                                                            int
	Parent                                                         *int
	Hash, DiffHash, Component, Hypothesis, Goal, Decision, Reason  string
	TraceIDs                                                       string // a JSON list
	RunIDs                                                         string // the runs decided on (see noteRuns)
	TrainPre, TrainPost, HoldoutPre, HoldoutPost, TrainP, HoldoutP *float64
	TrainFixed, TrainBroken, HoldoutFixed, HoldoutBroken           *int
	Tokens                                                         int64
	CreatedAt                                                      string
	// The cost of the decision: agent runs made and served by the run
	// cache, upstream requests and tokens, where the screen stopped, its seed.
	Runs, RunsCached, Requests int
	Upstream                   int64
	Stopped                    string
	Seed                       *int64
	Head                       bool // not a column: whether it is the head now
}

const genCols = `gen, parent_gen, harness_hash, diff_hash, component, hypothesis, trace_ids, goal, decision,
  reason, train_pre, train_post, holdout_pre, holdout_post, train_fixed, train_broken, train_p, holdout_fixed,
  holdout_broken, holdout_p, tokens, created_at, run_ids,
  runs, runs_cached, requests, upstream_tokens, stopped, screen_seed`

func (g *Gen) fields() []any {
	return []any{&g.Gen, &g.Parent, &g.Hash, &g.DiffHash, &g.Component, &g.Hypothesis, &g.TraceIDs, &g.Goal,
		&g.Decision, &g.Reason, &g.TrainPre, &g.TrainPost, &g.HoldoutPre, &g.HoldoutPost, &g.TrainFixed,
		&g.TrainBroken, &g.TrainP, &g.HoldoutFixed, &g.HoldoutBroken, &g.HoldoutP, &g.Tokens, &g.CreatedAt,
		&g.RunIDs, &g.Runs, &g.RunsCached, &g.Requests, &g.Upstream, &g.Stopped, &g.Seed}
}

// putGen writes a generation row. Apply calls it after every step (I4); a
// row whose decision is baseline, accept or rollback moves the head with it,
// in the same statement (the head_moves trigger).
func (a *Anchor) putGen(g *Gen) error {
	g.CreatedAt = now()
	return put(a.db, "generations", genCols, g.fields()...)
}

func (a *Anchor) gens(where string, args ...any) ([]Gen, error) {
	withHead := func(g *Gen) []any { return append(g.fields(), &g.Head) }
	return scan(a.db, withHead,
		`SELECT `+genCols+`, gen = (SELECT gen FROM head) FROM generations `+where+` ORDER BY gen`, args...)
}

// head returns the current head generation.
func (a *Anchor) head() (Gen, error) {
	gs, err := a.gens(`WHERE gen = (SELECT gen FROM head)`)
	if err != nil {
		return Gen{}, fmt.Errorf("read the head: %w", err)
	}
	if len(gs) == 0 {
		return Gen{}, errors.New("this ledger has no head yet; run `anchor init --harness harness` first")
	}
	return gs[0], nil
}

// nextGen is the number of the next generation row.
func (a *Anchor) nextGen() (int, error) {
	var n int
	if err := a.db.QueryRow(`SELECT COALESCE(MAX(gen), -1) + 1 FROM generations`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count generations: %w", err)
	}
	return n, nil
}

// meta returns a meta value, "" when it was never set.
func (a *Anchor) meta(key string) (string, error) {
	v, err := scan(a.db, column, `SELECT value FROM meta WHERE key = ?`, key)
	if err != nil {
		return "", fmt.Errorf("read the ledger's %s: %w", key, err)
	}
	return strings.Join(v, ""), nil // key is the primary key: one value or none
}

// column is how scan reads a row of one text column.
func column(v *string) []any { return []any{v} }

// printJSON prints v as one line of JSON, unless err: through Printable,
// for JSON keeps C1 and bidi controls raw (it escapes the other controls).
func (a *Anchor) printJSON(v any, err error) error {
	b, _ := json.Marshal(v)
	if err == nil {
		_, err = fmt.Fprintln(a.Out, Printable(string(b), len(b)))
	}
	return err
}

// lock takes the ledger's apply lock: one init, apply or rollback at a time.
// Holding it, any generation still "pending" belongs to a dead apply.
func (a *Anchor) lock() (func(), error) {
	f, err := os.OpenFile(a.path("apply.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open the apply lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close() // the lock file is never written: closing it loses nothing
		return nil, errors.New("another anchor init, apply or rollback holds this ledger; wait for it to finish")
	}
	a.sweep() // a dead apply's mounts and folders too
	_, err = a.db.Exec(`UPDATE generations SET decision = 'interrupted',
		reason = 'interrupted during: ' || reason WHERE decision = 'pending'`)
	if err != nil {
		f.Close() // as above: the error to report is the ledger's
		return nil, fmt.Errorf("mark dead applies interrupted: %w", err)
	}
	return func() { f.Close() }, nil
}

// sweep removes what dead anchors left in tmp/<pid>: mounts and folders.
func (a *Anchor) sweep() {
	dirs, _ := os.ReadDir(a.path("tmp"))
	mounts, _ := os.ReadFile("/proc/self/mountinfo")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			continue // not a process folder, or its process lives
		}
		dir, _ := filepath.Abs(a.path("tmp", d.Name()))
		for _, line := range strings.Split(string(mounts), "\n") {
			if f := strings.Fields(line); len(f) > 4 && strings.HasPrefix(f[4], dir+"/") {
				syscall.Unmount(f[4], syscall.MNT_DETACH)
			}
		}
		os.RemoveAll(dir) // a dead anchor's scratch: what stays is swept next time
		for _, controller := range []string{"pids", "memory"} {
			groups, _ := filepath.Glob(fmt.Sprintf("/sys/fs/cgroup/%s/ratchet-%d-*", controller, pid))
			removeCgroups(groups)
		}
	}
}
