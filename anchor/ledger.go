package anchor

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	_ "modernc.org/sqlite"
)

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
	if err != nil {
		return fmt.Errorf("open ledger %s: %w", a.path("ledger.db"), err)
	}
	a.db = db
	return nil
}

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }

func (a *Anchor) meta(key string) string {
	var v string
	a.db.QueryRow(`SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	return v
}

func (a *Anchor) setMeta(key, value string) error {
	_, err := a.db.Exec(`INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)`, key, value)
	return err
}

// frozenModel enforces I1: a ledger measures one model for its whole life.
func (a *Anchor) frozenModel() error {
	if m := a.meta("model"); m != "" && m != a.Model() {
		return fmt.Errorf("this ledger's model is frozen as %s but MODEL_* now say %s; restore the settings or use a new --home", m, a.Model())
	}
	return nil
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

type execer interface {
	Exec(query string, args ...any) (sql.Result, error)
}

func writeGen(e execer, g *Gen) error {
	ids, _ := json.Marshal(g.TraceIDs)
	if g.CreatedAt == "" {
		g.CreatedAt = now()
	}
	_, err := e.Exec(`INSERT OR REPLACE INTO generations VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`, g.Gen, g.Parent, g.Hash,
		g.DiffHash, g.Component, g.Hypothesis, string(ids), g.Decision, g.Reason, g.TrainPre, g.TrainPost,
		g.HoldoutPre, g.HoldoutPost, g.Tokens, g.CreatedAt)
	if err != nil {
		return fmt.Errorf("write generation %d: %w", g.Gen, err)
	}
	return nil
}

// putGen writes a generation row; apply calls it after every step so that an
// interrupted apply leaves a true record (I4).
func (a *Anchor) putGen(g *Gen) error { return writeGen(a.db, g) }

// moveHead records g and makes it the head in one transaction.
func (a *Anchor) moveHead(g *Gen) error {
	tx, err := a.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`INSERT OR REPLACE INTO head(id, gen) VALUES(1, ?)`, g.Gen); err != nil {
		return err
	}
	if err := writeGen(tx, g); err != nil {
		return err
	}
	return tx.Commit()
}

func (a *Anchor) gens(where string, args ...any) ([]Gen, error) {
	head := -1
	a.db.QueryRow(`SELECT gen FROM head WHERE id = 1`).Scan(&head)
	rows, err := a.db.Query(`SELECT gen, parent_gen, harness_hash, diff_hash, component, hypothesis, trace_ids, decision,
		reason, train_pre, train_post, holdout_pre, holdout_post, tokens, created_at FROM generations `+where+` ORDER BY gen`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Gen
	for rows.Next() {
		var g Gen
		var ids string
		if err := rows.Scan(&g.Gen, &g.Parent, &g.Hash, &g.DiffHash, &g.Component, &g.Hypothesis, &ids, &g.Decision,
			&g.Reason, &g.TrainPre, &g.TrainPost, &g.HoldoutPre, &g.HoldoutPost, &g.Tokens, &g.CreatedAt); err != nil {
			return nil, err
		}
		json.Unmarshal([]byte(ids), &g.TraceIDs)
		g.Head = g.Gen == head
		out = append(out, g)
	}
	return out, rows.Err()
}

var errNoInit = errors.New("this ledger has no head yet; run `anchor init --harness harness` first")

// head returns the current head generation.
func (a *Anchor) head() (Gen, error) {
	gs, err := a.gens(`WHERE gen = (SELECT gen FROM head WHERE id = 1)`)
	if err != nil {
		return Gen{}, err
	}
	if len(gs) == 0 {
		return Gen{}, errNoInit
	}
	return gs[0], nil
}

func (a *Anchor) nextGen() int {
	var n int
	a.db.QueryRow(`SELECT COALESCE(MAX(gen), -1) + 1 FROM generations`).Scan(&n)
	return n
}

// Log prints the generations, train and holdout side by side.
func (a *Anchor) Log(asJSON bool) error {
	gs, err := a.gens("")
	if err != nil {
		return err
	}
	if asJSON {
		if gs == nil {
			gs = []Gen{}
		}
		return json.NewEncoder(a.Out).Encode(gs)
	}
	tw := tabwriter.NewWriter(a.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "GEN\tPARENT\tDECISION\tTRAIN\tHOLDOUT\tCOMPONENT\tREASON")
	for _, g := range gs {
		mark := ""
		if g.Head {
			mark = " *"
		}
		parent := "-"
		if g.Parent != nil {
			parent = fmt.Sprint(*g.Parent)
		}
		fmt.Fprintf(tw, "%d%s\t%s\t%s\t%s\t%s\t%s\t%s\n", g.Gen, mark, parent, g.Decision, pair(g.TrainPre, g.TrainPost),
			pair(g.HoldoutPre, g.HoldoutPost), g.Component, g.Reason)
	}
	return tw.Flush()
}

func pair(pre, post *float64) string {
	f := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return fmt.Sprintf("%.3f", *p)
	}
	if pre == nil {
		return f(post)
	}
	return f(pre) + "→" + f(post)
}
