package ledgerdb

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const marker = "HOLDOUT-SECRET-4c1e"

// ledger writes a ledger on disk with the statements given, through a
// read-write connection of its own (the anchor's part in real life).
func ledger(t *testing.T, stmts ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ledger.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil && !strings.Contains(err.Error(), "duplicate column") {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return path
}

// anchorSchema is the anchor's own schema, read from its source, one
// statement at a time (its upgrades of older ledgers fail as duplicates).
func anchorSchema(t *testing.T) []string {
	_, file, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "anchor", "schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	var stmts []string
	for _, q := range strings.SplitAfter(string(b), ";\n") {
		if strings.TrimSpace(q) != "" {
			stmts = append(stmts, q)
		}
	}
	return stmts
}

func query(t *testing.T, path, q string, args ...any) []map[string]any {
	t.Helper()
	rows, err := Query(context.Background(), path, q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return rows
}

func TestHoldoutAndSealedErrorsNeverLeave(t *testing.T) {
	path := ledger(t, append(anchorSchema(t),
		`INSERT INTO runs(id, task_id, split, repeat, score, trace_path, outcome, error, created_at) VALUES
		 ('t1', 'a', 'train', 0, 0, '/home/traces/t1.jsonl', 'crash', 'harness exited with status 2: train says why', '1'),
		 ('h1', 'h', 'holdout', 0, 1, '/home/traces/h1.jsonl', 'crash', 'harness exited with status 3: `+marker+`', '2'),
		 ('h2', 'h', 'holdout', 1, 1, '', 'ok', '', '3'),
		 ('s1', 's', 'sealed', 0, 0, '/home/traces/s1.jsonl', 'timeout', 'agent run timed out: `+marker+`', '4')`)...)
	queries := []string{
		`SELECT * FROM runs`,
		`SELECT id, split, error, outcome, trace_path FROM runs ORDER BY created_at, rowid`,
		`SELECT error FROM runs WHERE split = 'holdout'`,
		`SELECT group_concat(error, '|') AS all_errors FROM runs`,
		`SELECT e FROM (SELECT error AS e FROM runs r WHERE r.id = 'h1')`,
		`WITH x AS (SELECT * FROM runs) SELECT * FROM x`,
		`SELECT instr(error, 'SECRET') AS found FROM runs WHERE id = 'h1'`,
	}
	for _, q := range queries {
		rows := query(t, path, q)
		if got := fmt.Sprint(rows); strings.Contains(got, marker) || strings.Contains(got, "h1.jsonl") || strings.Contains(got, "s1.jsonl") {
			t.Errorf("%s leaked a holdout or sealed error or trace:\n%s", q, got)
		}
	}
	rows := query(t, path, `SELECT id, error, outcome, trace_path FROM runs ORDER BY created_at`)
	want := []string{"harness exited with status 2: train says why", "withheld: crash", "", "withheld: timeout"}
	for i, r := range rows {
		if r["error"] != want[i] {
			t.Errorf("run %v: error %q, want %q", r["id"], r["error"], want[i])
		}
	}
	if rows[0]["trace_path"] != "/home/traces/t1.jsonl" || rows[1]["trace_path"] != "" {
		t.Errorf("trace paths: %v", rows)
	}
	if f := query(t, path, `SELECT instr(error, 'SECRET') AS found FROM runs WHERE id = 'h1'`); f[0]["found"] != int64(0) {
		t.Errorf("a holdout error can be probed: %v", f)
	}
	// Every other way to the stored column is shut.
	for _, q := range []string{
		`SELECT error FROM main.runs`,
		`SELECT * FROM main.runs WHERE split = 'holdout'`,
		`SELECT (SELECT trace_path FROM main.runs WHERE id = 's1') AS p`,
		`ATTACH DATABASE '` + path + `' AS copy`,
		`CREATE TEMP VIEW leak AS SELECT error FROM main.runs`,
		`DROP VIEW runs`,
		`PRAGMA query_only = 0`,
	} {
		rows, err := Query(context.Background(), path, q)
		if err == nil {
			t.Errorf("%s was allowed: %v", q, rows)
		} else if strings.Contains(err.Error(), marker) {
			t.Errorf("%s: the error leaks: %v", q, err)
		}
	}
}

func TestOldLedgersReadWithDefaults(t *testing.T) {
	old := []string{
		`CREATE TABLE runs(id TEXT, harness_hash TEXT, task_hash TEXT, task_id TEXT, split TEXT, model TEXT, score REAL, passed INTEGER,
		 total INTEGER, tokens_in INTEGER, tokens_out INTEGER, wall_ms INTEGER, exit_code INTEGER, trace_path TEXT, error TEXT, created_at TEXT)`,
		`CREATE TABLE generations(gen INTEGER PRIMARY KEY, parent_gen INTEGER, harness_hash TEXT, diff_hash TEXT, component TEXT, hypothesis TEXT,
		 trace_ids TEXT, decision TEXT, reason TEXT, train_pre REAL, train_post REAL, holdout_pre REAL, holdout_post REAL, tokens INTEGER, created_at TEXT)`,
		`CREATE TABLE head(id INTEGER PRIMARY KEY, gen INTEGER)`,
		`INSERT INTO generations(gen, harness_hash, decision, reason, train_post, holdout_post) VALUES(0, 'abc', 'baseline', 'hand-written', 0.5, 0.25)`,
		`INSERT INTO runs(id, task_id, split, score, error, created_at) VALUES('r1', 'a', 'train', 0, 'exit 1', '1'), ('r2', 'h', 'holdout', 0, '` + marker + `', '2'),
		 ('r3', 'h', 'holdout', 1, '', '3')`,
	}
	t.Run("old", func(t *testing.T) { readsOld(t, ledger(t, old...)) })
	// The anchor's upgrade adds the columns with empty outcomes.
	t.Run("upgraded", func(t *testing.T) { readsOld(t, ledger(t, append(old, anchorSchema(t)...)...)) })
}

func readsOld(t *testing.T, path string) {
	g := query(t, path, `SELECT goal, train_fixed, holdout_p, train_post FROM generations`)
	if len(g) != 1 || g[0]["goal"] != "" || g[0]["train_fixed"] != nil || g[0]["holdout_p"] != nil || g[0]["train_post"] != 0.5 {
		t.Errorf("old generations: %v", g)
	}
	r := query(t, path, `SELECT id, "repeat", outcome, error FROM runs ORDER BY created_at, rowid`)
	got := fmt.Sprint(r)
	want := `[map[error:exit 1 id:r1 outcome:error repeat:0] map[error:withheld: error id:r2 outcome:error repeat:0] map[error: id:r3 outcome:ok repeat:0]]`
	if got != want {
		t.Errorf("old runs:\n got %s\nwant %s", got, want)
	}
	if m := query(t, path, `SELECT value FROM meta WHERE key = 'repeats'`); len(m) != 0 {
		t.Errorf("a ledger without meta: %v", m)
	}
	cols := query(t, path, `SELECT name FROM pragma_table_info('runs')`)
	if !strings.Contains(fmt.Sprint(cols), "outcome") {
		t.Errorf("the view's columns: %v", cols)
	}
}

func TestNoLedger(t *testing.T) {
	_, err := Query(context.Background(), filepath.Join(t.TempDir(), "ledger.db"), `SELECT 1`)
	if err == nil || !strings.Contains(err.Error(), "run anchor init first") {
		t.Errorf("a missing ledger: %v", err)
	}
	empty := ledger(t, `CREATE TABLE other(x)`)
	if _, err := Query(context.Background(), empty, `SELECT * FROM runs`); err == nil || !strings.Contains(err.Error(), "no such table") {
		t.Errorf("a ledger with no runs table: %v", err)
	}
}
