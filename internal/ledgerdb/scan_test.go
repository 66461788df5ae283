package ledgerdb

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// escapes is what a hostile agent could put in a hypothesis: an OSC 52
// clipboard write, a bidi override and a C1 control.
const escapes = "\x1b]52;c;ZWNobyBoaQ==\a \u202e \u009b"

func current(t *testing.T) string {
	return ledger(t, append(anchorSchema(t),
		`INSERT INTO generations(gen, parent_gen, harness_hash, diff_hash, component, hypothesis, goal, decision, reason,
		 train_pre, train_post, holdout_pre, holdout_post, tokens, created_at) VALUES
		 (0, NULL, 'base', '', '', '', '', 'baseline', 'hand-written', NULL, 0.5, NULL, 0.25, 0, '1'),
		 (1, 0, 'cand', 'd1', 'prompt', 'say `+escapes+`', 'be brief', 'accept', 'train 0.5 -> 0.75', 0.5, 0.75, 0.25, 0.5, 1234, '2'),
		 (2, 1, 'worse', 'd2', 'tools', 'h', '', 'reject', 'holdout did not improve', 0.75, 1, 0.5, 0.25, 99, '3')`,
		`INSERT INTO meta(key, value) VALUES('model', 'm'), ('repeats', '3'), ('alpha', NULL)`,
		`INSERT INTO runs(id, harness_hash, task_hash, task_id, group_id, split, model, repeat, score, passed, total,
		 tokens_in, tokens_out, wall_ms, exit_code, trace_path, outcome, error, created_at) VALUES
		 ('t1', 'cand', 'th', 'a', 'g', 'train', 'm', 1, 0.5, 1, 2, 10, 20, 30, 1, '/home/traces/t1.jsonl', 'ok', 'exit 1', '1'),
		 ('t2', 'cand', 'th', 'b', '', 'train', 'm', 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'infra', '', '2'),
		 ('h1', 'cand', 'hh', 'h', '', 'holdout', 'm', 0, 1, 1, 1, 0, 0, 0, 0, '/home/traces/h1.jsonl', 'crash', '`+marker+`', '3')`)...)
}

func TestTypedReaders(t *testing.T) {
	ctx := context.Background()
	path := current(t)

	gens, err := Generations(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if len(gens) != 3 {
		t.Fatalf("%d generations, want 3: %+v", len(gens), gens)
	}
	base, cand, worse := gens[0], gens[1], gens[2]
	if base.Parent != nil || base.TrainPre != nil || base.HoldoutPre != nil || *base.TrainPost != 0.5 || base.Head {
		t.Errorf("the baseline's NULLs: %+v", base)
	}
	if *cand.Parent != 0 || cand.Hash != "cand" || cand.DiffHash != "d1" || cand.Component != "prompt" || cand.Goal != "be brief" ||
		cand.Decision != "accept" || cand.Reason != "train 0.5 -> 0.75" || *cand.TrainPre != 0.5 || *cand.TrainPost != 0.75 ||
		*cand.HoldoutPre != 0.25 || *cand.HoldoutPost != 0.5 || cand.Tokens != 1234 || cand.CreatedAt != "2" || !cand.Head {
		t.Errorf("the head: %+v", cand)
	}
	if strings.ContainsAny(cand.Hypothesis, "\x1b\a\u202e\u009b") || !strings.HasPrefix(cand.Hypothesis, "say ") {
		t.Errorf("the hypothesis was not read through show.Text: %q", cand.Hypothesis)
	}
	if *worse.Parent != 1 || worse.Head {
		t.Errorf("a rejected generation: %+v", worse)
	}

	head, err := Head(ctx, path)
	if err != nil || head == nil || !reflect.DeepEqual(*head, cand) {
		t.Errorf("Head = %+v, %v; want %+v", head, err, cand)
	}

	meta, err := Meta(ctx, path)
	want := map[string]string{"model": "m", "repeats": "3", "alpha": ""}
	if err != nil || !reflect.DeepEqual(meta, want) {
		t.Errorf("Meta = %v, %v; want %v", meta, err, want)
	}

	runs, err := Scan[Run](ctx, path, `SELECT * FROM runs ORDER BY created_at`)
	if err != nil {
		t.Fatal(err)
	}
	t1, t2, h1 := runs[0], runs[1], runs[2]
	if t1.ID != "t1" || t1.HarnessHash != "cand" || t1.TaskHash != "th" || t1.TaskID != "a" || t1.Group != "g" || t1.Split != "train" ||
		t1.Model != "m" || t1.Repeat != 1 || *t1.Score != 0.5 || t1.Passed != 1 || t1.Total != 2 || t1.TokensIn != 10 || t1.TokensOut != 20 ||
		t1.WallMS != 30 || t1.ExitCode != 1 || t1.TracePath != "/home/traces/t1.jsonl" || t1.Outcome != "ok" || t1.Error != "exit 1" || t1.CreatedAt != "1" {
		t.Errorf("a train run: %+v", t1)
	}
	if t2.Score != nil || t2.Passed != 0 || t2.TokensIn != 0 || t2.TracePath != "" || t2.Outcome != "infra" {
		t.Errorf("a run of NULLs: %+v", t2)
	}
	if h1.Error != "withheld: crash" || h1.TracePath != "" {
		t.Errorf("a holdout run shows its error or trace: %+v", h1)
	}
}

// TestTypedReadersOnOldLedgers reads a ledger from before repeats, outcomes,
// groups, goals and meta, and the same ledger upgraded, as today's.
func TestTypedReadersOnOldLedgers(t *testing.T) {
	old := []string{
		`CREATE TABLE runs(id TEXT, harness_hash TEXT, task_hash TEXT, task_id TEXT, split TEXT, model TEXT, score REAL, passed INTEGER,
		 total INTEGER, tokens_in INTEGER, tokens_out INTEGER, wall_ms INTEGER, exit_code INTEGER, trace_path TEXT, error TEXT, created_at TEXT)`,
		`CREATE TABLE generations(gen INTEGER PRIMARY KEY, parent_gen INTEGER, harness_hash TEXT, diff_hash TEXT, component TEXT, hypothesis TEXT,
		 trace_ids TEXT, decision TEXT, reason TEXT, train_pre REAL, train_post REAL, holdout_pre REAL, holdout_post REAL, tokens INTEGER, created_at TEXT)`,
		`CREATE TABLE head(id INTEGER PRIMARY KEY, gen INTEGER)`,
		`INSERT INTO generations(gen, harness_hash, decision, reason, train_post, holdout_post) VALUES(0, 'abc', 'baseline', 'hand-written', 0.5, 0.25)`,
		`INSERT INTO runs(id, task_id, split, score, error, created_at) VALUES('r1', 'a', 'train', 0, 'exit 1', '1'),
		 ('r2', 'h', 'holdout', 1, '', '2')`,
	}
	t.Run("old", func(t *testing.T) { typedOld(t, ledger(t, old...), false) })
	t.Run("upgraded", func(t *testing.T) {
		typedOld(t, ledger(t, append(old, append(anchorSchema(t), `INSERT INTO head VALUES(1, 0)`)...)...), true)
	})
}

func typedOld(t *testing.T, path string, hasHead bool) {
	ctx := context.Background()
	gens, err := Generations(ctx, path)
	if err != nil || len(gens) != 1 {
		t.Fatalf("Generations = %+v, %v", gens, err)
	}
	g := gens[0]
	if g.Goal != "" || g.Parent != nil || g.TrainPre != nil || *g.TrainPost != 0.5 || g.Hash != "abc" {
		t.Errorf("an old generation: %+v", g)
	}
	head, err := Head(ctx, path)
	if err != nil || g.Head != hasHead || (head != nil) != hasHead {
		t.Errorf("Head = %+v, %v; the generation's Head is %v, want %v", head, err, g.Head, hasHead)
	}
	meta, err := Meta(ctx, path)
	if err != nil || meta == nil || len(meta) != 0 {
		t.Errorf("Meta = %v, %v", meta, err)
	}
	runs, err := Scan[Run](ctx, path, `SELECT * FROM runs ORDER BY created_at`)
	if err != nil || len(runs) != 2 {
		t.Fatalf("runs = %+v, %v", runs, err)
	}
	if r := runs[0]; r.Repeat != 0 || r.Group != "" || r.Outcome != "error" || r.Error != "exit 1" || *r.Score != 0 {
		t.Errorf("an old train run: %+v", r)
	}
	if r := runs[1]; r.Outcome != "ok" || r.Error != "" || *r.Score != 1 {
		t.Errorf("an old holdout run: %+v", r)
	}
	// The columns a reader names, and not only *, read in an old ledger.
	if _, err := Scan[Run](ctx, path, `SELECT task_id, "repeat", outcome, group_id FROM runs`); err != nil {
		t.Errorf("the added columns by name: %v", err)
	}
}

// TestEveryTagIsAColumn checks the row types against the anchor's schema:
// a misspelt tag would otherwise read as an always-zero field.
func TestEveryTagIsAColumn(t *testing.T) {
	path := ledger(t, anchorSchema(t)...)
	for table, row := range map[string]reflect.Type{"generations": reflect.TypeFor[Gen](), "runs": reflect.TypeFor[Run]()} {
		var cols []string
		for _, c := range query(t, path, `SELECT name FROM pragma_table_info(?, 'main')`, table) {
			cols = append(cols, c["name"].(string))
		}
		for i := range row.NumField() {
			tag := row.Field(i).Tag.Get("db")
			if tag != "is_head" && !slices.Contains(cols, tag) {
				t.Errorf("%s.%s is tagged %q, which is no column of %s", row.Name(), row.Field(i).Name, tag, table)
			}
		}
	}
}

// TestScanTakesAnyValue: SQLite keeps any value in any column, and none of
// them fails a read; a value of the wrong kind reads as NULL.
func TestScanTakesAnyValue(t *testing.T) {
	// Columns without a type keep each value as it was written.
	path := ledger(t, `CREATE TABLE runs(id, score, passed, task_id, split, error)`,
		`INSERT INTO runs VALUES('r', 'not a number', 'nor this', 42, 'train', '')`,
		`INSERT INTO runs VALUES(X'6964', 3, 2.9, NULL, 'train', '')`)
	runs, err := Scan[Run](context.Background(), path, `SELECT * FROM runs ORDER BY rowid`)
	if err != nil {
		t.Fatal(err)
	}
	if r := runs[0]; r.Score != nil || r.Passed != 0 || r.TaskID != "" {
		t.Errorf("text in number columns: %+v", r)
	}
	if r := runs[1]; r.ID != "id" || *r.Score != 3 || r.Passed != 2 || r.TaskID != "" {
		t.Errorf("a blob id, an integer score, a real count: %+v", r)
	}
}

func TestScanRefuses(t *testing.T) {
	ctx := context.Background()
	path := current(t)
	if _, err := Scan[int](ctx, path, `SELECT 1`); err == nil {
		t.Errorf("Scan into an int was allowed")
	}
	if _, err := Scan[struct {
		At []string `db:"created_at"`
	}](ctx, path, `SELECT created_at FROM runs`); err == nil || !strings.Contains(err.Error(), "no column fills") {
		t.Errorf("a field no column fills: %v", err)
	}
	if _, err := Scan[struct {
		A string `db:"id"`
		B string `db:"id"`
	}](ctx, path, `SELECT id FROM runs`); err == nil {
		t.Errorf("two fields of one column were allowed")
	}
	if _, err := Scan[struct {
		id string `db:"id"`
	}](ctx, path, `SELECT id FROM runs`); err == nil || !strings.Contains(err.Error(), "not exported") {
		t.Errorf("an unexported field: %v", err)
	}
	// The views and the authorizer guard Scan as they guard Query.
	for _, q := range []string{`SELECT * FROM main.runs`, `SELECT error, trace_path FROM main.runs WHERE split = 'holdout'`} {
		if runs, err := Scan[Run](ctx, path, q); err == nil {
			t.Errorf("%s was allowed: %+v", q, runs)
		}
	}
	if _, err := Generations(ctx, filepath.Join(t.TempDir(), "ledger.db")); !errors.Is(err, ErrNoLedger) {
		t.Errorf("a missing ledger: %v", err)
	}
}

// Text is capped for people, but a generation's run ids (a full suite at two
// repeats lists about 27,000 characters of them) come back whole: cut, the
// decision could not be re-derived.
func TestRunIDsAreNeverCut(t *testing.T) {
	ids := strings.Repeat("train post 0123456789abcdef\n", 2000)
	path := ledger(t, append(anchorSchema(t), `INSERT INTO generations(gen, decision, reason, run_ids)
		VALUES(0, 'baseline', '`+strings.Repeat("r", 30000)+`', '`+ids+`')`)...)
	gens, err := Generations(context.Background(), path)
	if err != nil || len(gens) != 1 {
		t.Fatal(err)
	}
	if gens[0].RunIDs != ids {
		t.Errorf("run_ids read as %d characters, want %d", len(gens[0].RunIDs), len(ids))
	}
	if n := len([]rune(gens[0].Reason)); n != textLimit+1 {
		t.Errorf("a reason of 30,000 characters read as %d, want the cap and an ellipsis", n)
	}
}
