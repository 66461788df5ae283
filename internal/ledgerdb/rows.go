package ledgerdb

import (
	"context"
	"os"
	"path/filepath"
)

// The row types below are the one place outside the anchor where a ledger
// column is mapped to a Go field. They hold what Ratchet's readers use, not
// every column; a reader that needs another adds a field here. A column that
// can be NULL where NULL differs from zero (no parent, no score yet) is a
// pointer.

// Gen is a row of generations.
type Gen struct {
	Gen         int      `db:"gen"`
	Parent      *int     `db:"parent_gen"`
	Hash        string   `db:"harness_hash"`
	DiffHash    string   `db:"diff_hash"`
	Component   string   `db:"component"`
	Hypothesis  string   `db:"hypothesis"`
	Goal        string   `db:"goal"`
	Decision    string   `db:"decision"`
	Reason      string   `db:"reason"`
	TrainPre    *float64 `db:"train_pre"`
	TrainPost   *float64 `db:"train_post"`
	HoldoutPre  *float64 `db:"holdout_pre"`
	HoldoutPost *float64 `db:"holdout_post"`
	Tokens      int64    `db:"tokens"`
	CreatedAt   string   `db:"created_at"`
	// The gate's evidence beside the means: NULL where a split was not
	// compared, and in a ledger from before the evidence was kept.
	TrainFixed    *int     `db:"train_fixed"`
	TrainBroken   *int     `db:"train_broken"`
	TrainP        *float64 `db:"train_p"`
	HoldoutFixed  *int     `db:"holdout_fixed"`
	HoldoutBroken *int     `db:"holdout_broken"`
	HoldoutP      *float64 `db:"holdout_p"`
	// RunIDs are the runs the decision saw, a "split side id" line each
	// (side pre: the incumbent's, post: the candidate's).
	RunIDs string `db:"run_ids"`
	// The cost of the decision, and where the screen stopped it.
	Runs       int    `db:"runs"`
	RunsCached int    `db:"runs_cached"`
	Requests   int    `db:"requests"`
	Upstream   int64  `db:"upstream_tokens"`
	Stopped    string `db:"stopped"`
	// Head is no column: Generations and Head compute it as is_head.
	Head bool `db:"is_head"`
}

// Run is a row of runs, as the views show it: a holdout or sealed run's
// error reads as its outcome and its trace path as "".
type Run struct {
	ID          string   `db:"id"`
	HarnessHash string   `db:"harness_hash"`
	TaskHash    string   `db:"task_hash"`
	TaskID      string   `db:"task_id"`
	Group       string   `db:"group_id"` // "" in a ledger from before groups
	Split       string   `db:"split"`
	Model       string   `db:"model"`
	Repeat      int      `db:"repeat"`
	Score       *float64 `db:"score"`
	Passed      int      `db:"passed"`
	Total       int      `db:"total"`
	TokensIn    int64    `db:"tokens_in"`
	TokensOut   int64    `db:"tokens_out"`
	WallMS      int64    `db:"wall_ms"`
	ExitCode    int      `db:"exit_code"`
	TracePath   string   `db:"trace_path"`
	Outcome     string   `db:"outcome"`
	Error       string   `db:"error"`
	CreatedAt   string   `db:"created_at"`
	Judge       string   `db:"judge"` // the anchor build and Go toolchain that scored it
}

// Generations returns every generation of the ledger at path, oldest first,
// with Head set on the head.
func Generations(ctx context.Context, path string) ([]Gen, error) {
	return Scan[Gen](ctx, path, `SELECT *, gen = (SELECT gen FROM head) AS is_head FROM generations ORDER BY gen`)
}

// Head returns the head generation of the ledger at path, or nil when the
// ledger has none yet.
func Head(ctx context.Context, path string) (*Gen, error) {
	gens, err := Scan[Gen](ctx, path, `SELECT g.*, 1 AS is_head FROM head h JOIN generations g ON g.gen = h.gen`)
	if err != nil || len(gens) == 0 {
		return nil, err
	}
	return &gens[0], nil
}

// Meta returns the settings the anchor froze for the ledger at path (model,
// repeats, alpha, ...) by key; a ledger from before meta has none. A NULL
// value reads as "".
func Meta(ctx context.Context, path string) (map[string]string, error) {
	rows, err := Scan[struct {
		Key   string `db:"key"`
		Value string `db:"value"`
	}](ctx, path, `SELECT key, value FROM meta`)
	if err != nil {
		return nil, err
	}
	meta := make(map[string]string, len(rows))
	for _, r := range rows {
		meta[r.Key] = r.Value
	}
	return meta, nil
}

// Suite is the task suite a command on the ledger in home uses: ANCHOR_TASKS
// when it is set, else the suite the ledger froze at init, else
// tasks/example (a ledger older than the freezing, or none yet). The anchor
// refuses a suite that is not the ledger's, naming both.
func Suite(home string) string {
	if s := os.Getenv("ANCHOR_TASKS"); s != "" {
		return s
	}
	path := filepath.Join(home, "ledger.db")
	if _, err := os.Stat(path); err == nil {
		if meta, err := Meta(context.Background(), path); err == nil && meta["tasks"] != "" {
			return meta["tasks"]
		}
	}
	return "tasks/example"
}
