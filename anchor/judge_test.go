package anchor

import (
	"bytes"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A run another judge scored (another anchor build or Go toolchain) is not
// served from the cache: it runs again under this one, and ratchet log
// counts the runs the newest judge no longer trusts (audit's
// TestLogShowsTheGenerationsAndStaleRuns).
func TestRunsKnowTheirJudge(t *testing.T) {
	slow(t)
	t.Parallel()
	e := newEnv(t, repeat(fixer(""), 20)...)
	task := addTask(t, e.suite, "train", "judged")
	hash, err := e.a.Snapshot(harnessDir(t))
	if err != nil {
		t.Fatal(err)
	}
	first, err := e.a.RunTask(ctx(), hash, task, 0, false)
	if err != nil || first.Judge != judge() || !strings.Contains(first.Judge, " go1.") {
		t.Fatalf("first run: judge %q (want %q), %v", first.Judge, judge(), err)
	}
	again, err := e.a.RunTask(ctx(), hash, task, 0, false)
	if err != nil || !again.Cached || again.ID != first.ID {
		t.Fatalf("the same judge's run was not served from the cache: %+v, %v", again, err)
	}
	if _, err := e.a.db.Exec(`UPDATE runs SET judge = 'an older anchor go1.25.0'`); err != nil {
		t.Fatal(err)
	}
	rerun, err := e.a.RunTask(ctx(), hash, task, 0, false)
	if err != nil || rerun.Cached || rerun.ID == first.ID || rerun.Judge != judge() || rerun.Outcome != "ok" {
		t.Fatalf("another judge's run was served, or the new run is wrong: %+v, %v", rerun, err)
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
