package plan

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"

	"ratchet/anchor"
	"ratchet/internal/ledgerdb"
)

// Observed is the head generation's evidence in the ledger: its per-task
// repeat scores on train and holdout under the ledger's model, with the
// ledger's K and alpha.
type Observed struct {
	Gen            int
	Hash, Model    string
	K              int
	Alpha          float64
	Looks          int // the holdout's looks: 1 in a ledger from before the second look
	Train, Holdout []TaskScores
	// What one run of the head cost on average: upstream model requests
	// and tokens, in and out (0 in a ledger from before requests were counted).
	RequestsPerRun, TokensPerRun float64
	// Every other harness's latest first-repeat run of each train and
	// holdout task, solved (score 1) or not, by task: how much a task's
	// outcome moves from one harness to the next, the noise the gate must beat.
	Across map[string][]bool
}

// TaskScores are one task's repeat scores, in repeat order, and its group
// (its id in a ledger from before groups).
type TaskScores struct {
	ID, Group string
	Scores    []float64
	Tier      int // where the screen evaluates it (anchor.TiersQuery): 0 first, 2 last
}

// Load reads the head's runs from the ledger in home, read-only. A task's
// repeat counts once, from its latest run (an errored run is re-run and the
// re-run is what the gate compared); runs whose outcome is infra are never
// a score. Ledgers from before repeats (no repeat or outcome column) read as
// one repeat per task.
func Load(ctx context.Context, home string) (*Observed, error) {
	path := filepath.Join(home, "ledger.db")
	head, err := ledgerdb.Head(ctx, path)
	if err != nil {
		return nil, err
	}
	if head == nil {
		return nil, fmt.Errorf("the ledger in %s has no head: run anchor init first", home)
	}
	meta, err := ledgerdb.Meta(ctx, path)
	if err != nil {
		return nil, err
	}
	o := &Observed{Gen: head.Gen, Hash: head.Hash, Model: meta["model"], K: 1, Alpha: 0.05, Looks: 1}
	if n, err := strconv.Atoi(meta["looks"]); err == nil && n >= 1 && n <= 2 {
		o.Looks = n
	}
	if k, err := strconv.Atoi(meta["repeats"]); err == nil && k >= 1 {
		o.K = k
	}
	if a, err := strconv.ParseFloat(meta["alpha"], 64); err == nil && a > 0 && a < 1 {
		o.Alpha = a
	}
	// In a ledger from before repeats, outcomes or groups, ledgerdb's views
	// read every run as repeat 0, of no group, with an outcome never infra.
	runs, err := ledgerdb.Scan[ledgerdb.Run](ctx, path, `SELECT task_id, split, score, "repeat", group_id FROM runs
		WHERE harness_hash = ? AND model = ? AND split IN ('train', 'holdout') AND outcome != 'infra'
		ORDER BY created_at, rowid`, o.Hash, o.Model)
	if err != nil {
		return nil, err
	}
	type key struct {
		split, task string
		rep         int
	}
	latest, groups := map[key]float64{}, map[string]string{}
	for _, r := range runs {
		score := 0.0 // a run without a score scored nothing
		if r.Score != nil {
			score = *r.Score
		}
		latest[key{r.Split, r.TaskID, r.Repeat}] = score
		groups[r.TaskID] = cmp.Or(r.Group, r.TaskID) // a task of no group is its own
	}
	keys := make([]key, 0, len(latest))
	for k := range latest {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.split, b.split), cmp.Compare(a.task, b.task), cmp.Compare(a.rep, b.rep))
	})
	for _, k := range keys {
		split := &o.Train
		if k.split == "holdout" {
			split = &o.Holdout
		}
		if n := len(*split); n == 0 || (*split)[n-1].ID != k.task {
			*split = append(*split, TaskScores{ID: k.task, Group: groups[k.task]})
		}
		t := &(*split)[len(*split)-1]
		t.Scores = append(t.Scores, latest[k])
	}
	// The screen's order, by the anchor's own query (before any candidate ran).
	type tier struct {
		Task string `db:"task_id"`
		Tier int    `db:"tier"`
	}
	for _, sp := range []struct {
		name  string
		tasks []TaskScores
	}{{"train", o.Train}, {"holdout", o.Holdout}} {
		tiers, err := ledgerdb.Scan[tier](ctx, path, anchor.TiersQuery, sp.name, "")
		if err != nil {
			return nil, err
		}
		for _, t := range tiers {
			if i := slices.IndexFunc(sp.tasks, func(s TaskScores) bool { return s.ID == t.Task }); i >= 0 {
				sp.tasks[i].Tier = t.Tier
			}
		}
	}
	// Other harnesses' first runs: the latest of each harness and task counts.
	others, err := ledgerdb.Scan[ledgerdb.Run](ctx, path, `SELECT harness_hash, task_id, score FROM runs
		WHERE model = ? AND harness_hash != ? AND "repeat" = 0 AND split IN ('train', 'holdout') AND outcome != 'infra'
		ORDER BY created_at, rowid`, o.Model, o.Hash)
	if err != nil {
		return nil, err
	}
	solvedBy := map[[2]string]bool{} // task, harness
	for _, r := range others {
		solvedBy[[2]string{r.TaskID, r.HarnessHash}] = r.Score != nil && *r.Score >= 1-1e-9
	}
	o.Across = map[string][]bool{}
	for _, k := range slices.SortedFunc(maps.Keys(solvedBy), func(a, b [2]string) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	}) {
		o.Across[k[0]] = append(o.Across[k[0]], solvedBy[k])
	}
	type cost struct {
		Requests *float64 `db:"requests"`
		Tokens   *float64 `db:"tokens"`
	}
	costs, err := ledgerdb.Scan[cost](ctx, path, `SELECT AVG(requests) AS requests, AVG(tokens_in + tokens_out) AS tokens
		FROM runs WHERE harness_hash = ? AND model = ? AND outcome != 'infra'`, o.Hash, o.Model)
	if err == nil && len(costs) == 1 && costs[0].Requests != nil && costs[0].Tokens != nil { // else a ledger from before
		o.RequestsPerRun, o.TokensPerRun = *costs[0].Requests, *costs[0].Tokens
	}
	if len(o.Holdout) == 0 {
		return nil, fmt.Errorf("the head (generation %d) has no holdout runs for model %q in %s: run anchor eval --split holdout first", o.Gen, o.Model, home)
	}
	return o, nil
}
