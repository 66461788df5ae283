package plan

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// oldSchema is the anchor's ledger before repeats (anchor/anchor.go's
// schema); the current one adds runs.repeat and runs.outcome.
const oldSchema = `
CREATE TABLE runs(id TEXT PRIMARY KEY, harness_hash TEXT, task_hash TEXT, task_id TEXT, split TEXT, model TEXT, score REAL, passed INTEGER, total INTEGER, tokens_in INTEGER, tokens_out INTEGER, wall_ms INTEGER, exit_code INTEGER, trace_path TEXT, error TEXT NOT NULL DEFAULT '', created_at TEXT);
CREATE TABLE evals(id INTEGER PRIMARY KEY, harness_hash TEXT, split TEXT, model TEXT, score REAL, n_tasks INTEGER, cached INTEGER, created_at TEXT);
CREATE TABLE generations(gen INTEGER PRIMARY KEY, parent_gen INTEGER, harness_hash TEXT, diff_hash TEXT, component TEXT, hypothesis TEXT, trace_ids TEXT, decision TEXT, reason TEXT, train_pre REAL, train_post REAL, holdout_pre REAL, holdout_post REAL, tokens INTEGER, created_at TEXT);
CREATE TABLE head(id INTEGER PRIMARY KEY CHECK (id = 1), gen INTEGER);
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);`

const newColumns = `
ALTER TABLE runs ADD COLUMN repeat INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN outcome TEXT NOT NULL DEFAULT '';`

type run struct {
	hash, task, split, model string
	rep                      int
	score                    float64
	outcome                  string
}

// ledger writes a ledger in a fresh home: generation 1 (harness "old") and
// the head, generation 2 (harness "head"), with runs in insertion order.
func ledger(t *testing.T, withRepeats bool, meta map[string]string, runs []run) string {
	t.Helper()
	home := t.TempDir()
	db, err := sql.Open("sqlite", filepath.Join(home, "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ddl := oldSchema
	if withRepeats {
		ddl += newColumns
	}
	tx, err := db.Begin() // one commit: a disk sync per row would take seconds
	if err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := tx.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(ddl)
	exec(`INSERT INTO generations(gen, harness_hash, decision) VALUES(1, 'old', 'baseline'), (2, 'head', 'accept'), (3, 'rejected', 'reject')`)
	exec(`INSERT INTO head VALUES(1, 2)`)
	for k, v := range meta {
		exec(`INSERT INTO meta VALUES(?, ?)`, k, v)
	}
	for i, r := range runs {
		at := fmt.Sprintf("2026-11-30T12:00:%02d.000Z", i)
		if withRepeats {
			exec(`INSERT INTO runs(id, harness_hash, task_id, split, model, score, "repeat", outcome, created_at) VALUES(?,?,?,?,?,?,?,?,?)`,
				fmt.Sprint("r", i), r.hash, r.task, r.split, r.model, r.score, r.rep, r.outcome, at)
		} else {
			exec(`INSERT INTO runs(id, harness_hash, task_id, split, model, score, created_at) VALUES(?,?,?,?,?,?,?)`,
				fmt.Sprint("r", i), r.hash, r.task, r.split, r.model, r.score, at)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return home
}

func TestLoadWithRepeats(t *testing.T) {
	runs := []run{
		{"head", "h1", "holdout", "m", 0, 0, "infra"}, // never a score
		{"head", "h1", "holdout", "m", 0, 0, "timeout"},
		{"head", "h1", "holdout", "m", 0, 1, "ok"}, // the re-run is what counts
		{"head", "h1", "holdout", "m", 1, 1, "ok"},
		{"head", "h1", "holdout", "m", 2, 0.5, "ok"},
		{"head", "h2", "holdout", "m", 1, 0, "ok"},
		{"head", "h2", "holdout", "m", 0, 1, "ok"},
		{"head", "h3", "holdout", "m", 2, 1, "infra"},
		{"head", "t1", "train", "m", 0, 1, "ok"},
		{"head", "s1", "sealed", "m", 0, 1, "ok"},
		{"old", "h4", "holdout", "m", 0, 1, "ok"},
		{"head", "h5", "holdout", "other model", 0, 1, "ok"},
		{"head", "h6", "holdout", "m", 0, 1, "ok"}, {"old", "h6", "holdout", "m", 0, 1, "ok"},
		{"head", "h6", "holdout", "m", 1, 1, "ok"},
	}
	home := ledger(t, true, map[string]string{"model": "m", "repeats": "3", "alpha": "0.1"}, runs)
	o, err := Load(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	if o.Gen != 2 || o.Hash != "head" || o.Model != "m" || o.K != 3 || o.Alpha != 0.1 {
		t.Errorf("head %d %q, model %q, K %d, alpha %g", o.Gen, o.Hash, o.Model, o.K, o.Alpha)
	}
	// the screen's tiers (anchor.TiersQuery): runs that disagree 0, fewer than three that agree 1, more 2
	wantHold := []TaskScores{{ID: "h1", Scores: []float64{1, 1, 0.5}}, {ID: "h2", Scores: []float64{1, 0}},
		{ID: "h6", Scores: []float64{1, 1}, Tier: 2}}
	if !slices.EqualFunc(o.Holdout, wantHold, sameTask) {
		t.Errorf("holdout %v, want %v", o.Holdout, wantHold)
	}
	if want := []TaskScores{{ID: "t1", Scores: []float64{1}, Tier: 1}}; !slices.EqualFunc(o.Train, want, sameTask) {
		t.Errorf("train %v, want %v", o.Train, want)
	}
}

func sameTask(a, b TaskScores) bool {
	return a.ID == b.ID && slices.Equal(a.Scores, b.Scores) && a.Tier == b.Tier
}

func TestLoadOldLedger(t *testing.T) {
	runs := []run{
		{"head", "h1", "holdout", "m", 0, 0, ""},
		{"head", "h1", "holdout", "m", 0, 1, ""}, // the latest run of a task is its score
		{"head", "h2", "holdout", "m", 0, 0, ""},
		{"head", "t1", "train", "m", 0, 0.5, ""},
	}
	o, err := Load(context.Background(), ledger(t, false, map[string]string{"model": "m"}, runs))
	if err != nil {
		t.Fatal(err)
	}
	// h1's two runs disagree: the screen evaluates it first (anchor.TiersQuery)
	want := []TaskScores{{ID: "h1", Scores: []float64{1}}, {ID: "h2", Scores: []float64{0}, Tier: 1}}
	if o.K != 1 || o.Alpha != 0.05 || !slices.EqualFunc(o.Holdout, want, sameTask) || len(o.Train) != 1 {
		t.Errorf("K %d, alpha %g, holdout %v, train %v", o.K, o.Alpha, o.Holdout, o.Train)
	}
}

func TestLoadErrors(t *testing.T) {
	for name, home := range map[string]string{
		"no ledger":   t.TempDir(),
		"no holdout":  ledger(t, true, map[string]string{"model": "m"}, []run{{"head", "t1", "train", "m", 0, 1, "ok"}}),
		"other model": ledger(t, true, map[string]string{"model": "m"}, []run{{"head", "h1", "holdout", "x", 0, 1, "ok"}}),
	} {
		_, err := Load(context.Background(), home)
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "anchor") {
			t.Errorf("%s: error %v, want one line naming what to run", name, err)
		}
	}
}

// headRuns is a head that passed half of 30 holdout and 40 train tasks,
// three repeats each, all repeats agreeing unless flaky.
func headRuns(flaky bool) []run {
	var runs []run
	for i := range 70 {
		split, task := "train", fmt.Sprintf("t%02d", i)
		if i >= 40 {
			split, task = "holdout", fmt.Sprintf("h%02d", i)
		}
		for rep := range 3 {
			score := float64(i % 2)
			if flaky && rep == 2 {
				score = 1 - score
			}
			runs = append(runs, run{"head", task, split, "m", rep, score, "ok"})
		}
	}
	return runs
}

func TestPlanFromLedger(t *testing.T) {
	t.Parallel()
	home := ledger(t, true, map[string]string{"model": "m", "repeats": "3"}, headRuns(true))
	r, err := Plan(context.Background(), Config{Home: home, Trials: 300, AA: 1000, Seed: 9, Gains: []float64{0.1, 0.3}, ScreenTrials: fewScreens})
	if err != nil {
		t.Fatal(err)
	}
	if r.Source != "ledger" || *r.HeadGen != 2 || r.Repeats != 3 || r.HoldoutTasks != 30 || r.TrainTasks != 40 || r.Deterministic {
		t.Errorf("source %s, gen %d, K %d, %d holdout, %d train, deterministic %v", r.Source, *r.HeadGen, r.Repeats, r.HoldoutTasks, r.TrainTasks, r.Deterministic)
	}
	if math.Abs(*r.HoldoutMean-0.5) > 1e-12 || r.FlakyTasks != 70 || math.Abs(r.PlannedMean-0.5) > 1e-12 {
		t.Errorf("holdout mean %g, planned %g, %d flaky", *r.HoldoutMean, r.PlannedMean, r.FlakyTasks)
	}
	if r.MDE == nil || *r.MDE <= 0.01 || *r.MDE >= 0.5 {
		t.Errorf("MDE %v", r.MDE)
	}
	if g := r.Gains[1]; g.Power == nil || *g.Power < *r.Gains[0].Power {
		t.Errorf("+30 points: power %v below +10's", g.Power)
	}
	if r.AA == nil || r.AA.FalseAcceptRate > 0.05+3*0.007 {
		t.Errorf("A/A %+v", r.AA)
	}
	b, _ := json.Marshal(r)
	for _, key := range []string{`"head_gen":2`, `"holdout_tasks":30`, `"mde":`, `"holdout_tasks_needed":`, `"holdout_groups_needed":`, `"repeats_needed":`, `"false_accept_rate":`, `"gain_model":"logit"`} {
		if !bytes.Contains(b, []byte(key)) {
			t.Errorf("JSON lacks %s: %s", key, b)
		}
	}
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil || !strings.Contains(text.String(), "smallest holdout gain accepted with 80% power") {
		t.Errorf("text report: %v\n%s", err, text.String())
	}
	if order := "the screen's order: 40 train and 30 holdout tasks have runs that disagree"; !strings.Contains(text.String(), order) {
		t.Errorf("the report does not say %q:\n%s", order, text.String())
	}
	t.Log("\n" + text.String())
}

// TestPlanDeterministicServer: repeats that never disagree are one draw, so
// the plan reads one per task and is no more hopeful than K = 1.
func TestPlanDeterministicServer(t *testing.T) {
	t.Parallel()
	cfg := Config{Trials: 500, Seed: 9, Gains: []float64{0.2}, ScreenTrials: fewScreens}
	cfg.Home = ledger(t, true, map[string]string{"model": "m", "repeats": "3"}, headRuns(false))
	r, err := Plan(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Deterministic || r.Repeats != 1 || r.FlakyTasks != 0 || !strings.Contains(strings.Join(r.Notes, " "), "deterministic") {
		t.Errorf("deterministic %v, planned K %d, %d flaky, notes %q", r.Deterministic, r.Repeats, r.FlakyTasks, r.Notes)
	}
	var once []run
	for _, x := range headRuns(false) {
		if x.rep == 0 {
			once = append(once, x)
		}
	}
	cfg.Home = ledger(t, true, map[string]string{"model": "m", "repeats": "1"}, once)
	r1, err := Plan(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if *r.MDE != *r1.MDE || *r.Gains[0].Power != *r1.Gains[0].Power {
		t.Errorf("3 identical repeats plan MDE %g, power %g; one run plans %g, %g", *r.MDE, *r.Gains[0].Power, *r1.MDE, *r1.Gains[0].Power)
	}
}

func TestPlanAssumedNeedsNoLedger(t *testing.T) {
	t.Parallel()
	r, err := Plan(context.Background(), Config{Home: t.TempDir(), P: 0.5, Holdout: 30, Train: 50, Trials: 500, Gains: []float64{0.2}, ScreenTrials: fewScreens, Looks: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Source != "assumed" || r.HeadGen != nil || r.Repeats != 1 || r.Alpha != 0.05 || r.Looks != 1 {
		t.Errorf("%+v", r)
	}
	want := exactAccept(50, 30, 0.5, 0.7, 0.05)
	if got := *r.Gains[0].Power; math.Abs(got-want) > 0.07 {
		t.Errorf("coin-flip +20 on 30 holdout tasks: power %g, exact %g", got, want)
	}
	// Two looks, as a new ledger has them: more power, and alpha still held.
	r2, err := Plan(context.Background(), Config{Home: t.TempDir(), P: 0.5, Holdout: 30, Train: 50, Trials: 500, Gains: []float64{0.2}, ScreenTrials: fewScreens, AA: 4000})
	if err != nil {
		t.Fatal(err)
	}
	if r2.Looks != 2 || *r2.Gains[0].Power < *r.Gains[0].Power+0.1 || r2.AA.FalseAcceptRate > 0.05 {
		t.Errorf("two looks: %d, power %g against one look's %g, false accepts %g", r2.Looks, *r2.Gains[0].Power, *r.Gains[0].Power, r2.AA.FalseAcceptRate)
	}
	if _, err := Plan(context.Background(), Config{Home: t.TempDir(), P: 1.5}); err == nil || !strings.Contains(err.Error(), "--p") {
		t.Errorf("--p 1.5: %v", err)
	}
}

// The plan reads each task's group from the ledger's runs: the gate's units.
func TestPlanFromLedgerByGroups(t *testing.T) {
	t.Parallel()
	home := ledger(t, true, map[string]string{"model": "m", "repeats": "3"}, headRuns(true))
	db, err := sql.Open("sqlite", filepath.Join(home, "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`ALTER TABLE runs ADD COLUMN group_id TEXT NOT NULL DEFAULT ''`)
	if err == nil { // holdout h40..h69 in kinds of five; train stays ungrouped ('' is the task's own)
		_, err = db.Exec(`UPDATE runs SET group_id = 'k' || ((CAST(substr(task_id, 2) AS INTEGER) - 40) / 5) WHERE split = 'holdout'`)
	}
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	o, err := Load(context.Background(), home)
	if err != nil || o.Holdout[0].Group != "k0" || o.Holdout[29].Group != "k5" || o.Train[0].Group != "t00" {
		t.Fatalf("groups: %v %+v %+v", err, o.Holdout[0], o.Train[0])
	}
	r, err := Plan(context.Background(), Config{Home: home, Trials: 200, Gains: []float64{0.1}, ScreenTrials: fewScreens})
	if err != nil || r.HoldoutGroups != 6 || r.TrainGroups != 40 || r.HoldoutTasks != 30 {
		t.Errorf("plan: %v, %d holdout groups, %d train groups", err, r.HoldoutGroups, r.TrainGroups)
	}
}

// ratchet evolve asks Sees before its first round: a suite of two holdout
// tasks can never be accepted on (the uuid suite of issue 36 looped on it
// overnight), a small one is warned of, a large one passes quietly.
func TestSees(t *testing.T) {
	suite := func(n int) string {
		var runs []run
		for i := range n {
			runs = append(runs, run{"head", fmt.Sprintf("h%03d", i), "holdout", "m", 0, float64(i % 2), "ok"},
				run{"head", fmt.Sprintf("t%03d", i), "train", "m", 0, float64(i % 2), "ok"})
		}
		return ledger(t, true, map[string]string{"model": "m", "repeats": "1"}, runs)
	}
	ctx := context.Background()
	if w, err := Sees(ctx, suite(2), 0.10); err == nil || !strings.Contains(err.Error(), "can never accept") || w != "" {
		t.Errorf("2 holdout tasks: %q, %v; want it refused", w, err)
	}
	if w, err := Sees(ctx, suite(8), 0.10); err != nil || !strings.Contains(w, "on 8 holdout groups") {
		t.Errorf("8 holdout tasks: %q, %v; want a warning", w, err)
	}
	if w, err := Sees(ctx, suite(400), 0.10); err != nil || w != "" {
		t.Errorf("400 holdout tasks: %q, %v; want nothing said", w, err)
	}
	if w, err := Sees(ctx, t.TempDir(), 0.10); err != nil || w != "" {
		t.Errorf("no ledger: %q, %v; want nothing said", w, err)
	}
}

// Plan says what a decision costs in model requests: the screen's runs per
// decision times what a run of the head sent.
func TestPlanSaysWhatADecisionCosts(t *testing.T) {
	var runs []run
	for i := range 60 {
		runs = append(runs, run{"head", fmt.Sprintf("h%03d", i), "holdout", "m", 0, float64(i % 2), "ok"},
			run{"head", fmt.Sprintf("t%03d", i), "train", "m", 0, float64(i % 2), "ok"})
	}
	home := ledger(t, true, map[string]string{"model": "m", "repeats": "1"}, runs)
	db, err := sql.Open("sqlite", filepath.Join(home, "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`ALTER TABLE runs ADD COLUMN requests INTEGER NOT NULL DEFAULT 4`,
		`UPDATE runs SET tokens_in = 1000, tokens_out = 200`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	r, err := Plan(context.Background(), Config{Home: home, Trials: 200, ScreenTrials: 40, Gains: []float64{0.2}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	r.WriteText(&b)
	if r.RequestsPerRun != 4 || r.TokensPerRun != 1200 ||
		!strings.Contains(b.String(), "a run of the head sent 4.0 model requests (1200 tokens); a rejected neutral candidate costs at most") {
		t.Errorf("requests per run %g, tokens %g:\n%s", r.RequestsPerRun, r.TokensPerRun, b.String())
	}
}
