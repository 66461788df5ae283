package ui

import (
	"database/sql"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite"
)

// /api/head carries the latest calibration and how many decisions have
// consulted the holdout since the last sealed exam.
func TestHeadShowsTheNoiseFloor(t *testing.T) {
	home := t.TempDir()
	db, err := sql.Open("sqlite", filepath.Join(home, "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT)`,
		`CREATE TABLE head(id INTEGER PRIMARY KEY, gen INTEGER)`,
		`CREATE TABLE generations(gen INTEGER PRIMARY KEY, harness_hash TEXT, decision TEXT, holdout_pre REAL, created_at TEXT)`,
		`CREATE TABLE runs(id TEXT, harness_hash TEXT, task_id TEXT, split TEXT, model TEXT, "repeat" INTEGER, score REAL, passed INTEGER, total INTEGER, outcome TEXT, error TEXT, created_at TEXT)`,
		`CREATE TABLE evals(id INTEGER PRIMARY KEY, harness_hash TEXT, split TEXT, created_at TEXT)`,
		`INSERT INTO head VALUES(1, 0)`,
		`INSERT INTO generations VALUES(0, 'h0', 'baseline', NULL, '2026-12-01T10:00:00Z'), (1, 'h1', 'reject', 0.5, '2026-12-01T11:00:00Z'),
			(2, 'h2', 'reject', 0.5, '2026-12-01T13:00:00Z'), (3, 'h3', 'reject', 0.5, '2026-12-01T14:00:00Z'), (4, 'h4', 'reject', NULL, '2026-12-01T15:00:00Z')`,
		`INSERT INTO evals VALUES(1, 'h0', 'sealed', '2026-12-01T12:00:00Z')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
	db.Close()
	lines := `{"head_gen":0,"accepted":9}` + "\n" + `{"head_gen":0,"accepted":1,"false_accept_rate":0.05,"predicted_rate":0.04,"variants":[{}]}` + "\n"
	if err := os.WriteFile(filepath.Join(home, "calibration.jsonl"), []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	Handler{Home: home}.ServeHTTP(rec, httptest.NewRequest("GET", "/api/head", nil))
	var got struct {
		Consults    int64 `json:"holdout_consults"`
		Calibration struct {
			Accepted  int     `json:"accepted"`
			Predicted float64 `json:"predicted_rate"`
		} `json:"calibration"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || rec.Code != 200 {
		t.Fatalf("%d %v: %s", rec.Code, err, rec.Body.String())
	}
	// Generations 2 and 3 looked at the holdout after the sealed exam at 12:00;
	// 1 did before it and 4 was rejected before holdout.
	if got.Consults != 2 || got.Calibration.Accepted != 1 || got.Calibration.Predicted != 0.04 {
		t.Errorf("head: %s", rec.Body.String())
	}
}
