package evolve

import (
	"context"
	"errors"
	"path/filepath"
	"slices"

	"ratchet/anchor"
	"ratchet/internal/ledgerdb"
)

// The evolver reads the ledger read-only through ledgerdb's typed rows and
// copies them into the anchor's own row types, which the rest of evolve
// works on (anchor eval's JSON decodes into them too). Only train runs are
// ever read here; of holdout it reads the decision alone.

// ledger is one ledger's read-only view, as the evolver needs it.
type ledger struct {
	path  string
	model string // the ledger's frozen model (meta "model")
}

func (c Config) openLedger(ctx context.Context) (ledger, error) {
	l := ledger{path: filepath.Join(c.Home, "ledger.db")}
	meta, err := ledgerdb.Meta(ctx, l.path)
	if err != nil {
		return l, err
	}
	l.model = meta["model"]
	return l, nil
}

// gens returns every generation, oldest first, with Head set on the head.
func (l ledger) gens(ctx context.Context) ([]anchor.Gen, error) {
	rows, err := ledgerdb.Generations(ctx, l.path)
	if err != nil {
		return nil, err
	}
	gens := make([]anchor.Gen, 0, len(rows))
	for _, g := range rows {
		gens = append(gens, anchor.Gen{Gen: g.Gen, Parent: g.Parent, Hash: g.Hash, DiffHash: g.DiffHash,
			Component: g.Component, Hypothesis: g.Hypothesis, Decision: g.Decision, Reason: g.Reason,
			TrainPre: g.TrainPre, TrainPost: g.TrainPost, HoldoutPre: g.HoldoutPre, HoldoutPost: g.HoldoutPost,
			Tokens: g.Tokens, CreatedAt: g.CreatedAt, Goal: g.Goal, Head: g.Head})
	}
	return gens, nil
}

func head(gens []anchor.Gen) (anchor.Gen, error) {
	i := slices.IndexFunc(gens, func(g anchor.Gen) bool { return g.Head })
	if i < 0 {
		return anchor.Gen{}, errors.New("the ledger has no head; run anchor init first")
	}
	return gens[i], nil
}

// trainScores returns each train task's mean score for a harness under the
// ledger's model, over every run the ledger holds (repeats included) but
// those lost to the infrastructure, which are no score.
func (l ledger) trainScores(ctx context.Context, hash string) (map[string]float64, error) {
	// The aliases make each task's mean read as a Run.
	rows, err := ledgerdb.Scan[ledgerdb.Run](ctx, l.path, `SELECT task_id, AVG(score) AS score FROM runs
		WHERE harness_hash = ? AND split = 'train' AND model = ? AND outcome != 'infra' GROUP BY task_id`, hash, l.model)
	if err != nil {
		return nil, err
	}
	scores := map[string]float64{}
	for _, r := range rows {
		if r.Score != nil {
			scores[r.TaskID] = *r.Score
		}
	}
	return scores, nil
}

// trainRuns returns a harness's latest train run of every task and repeat
// under the ledger's model: with repeats, each draw is there to compare.
func (l ledger) trainRuns(ctx context.Context, hash string) ([]anchor.Run, error) {
	rows, err := ledgerdb.Scan[ledgerdb.Run](ctx, l.path, `SELECT * FROM runs r WHERE split = 'train' AND harness_hash = ? AND model = ?
		AND created_at = (SELECT MAX(created_at) FROM runs WHERE task_id = r.task_id AND repeat = r.repeat AND split = 'train'
			AND harness_hash = r.harness_hash AND model = r.model)
		ORDER BY task_id, repeat`, hash, l.model)
	if err != nil {
		return nil, err
	}
	runs := make([]anchor.Run, 0, len(rows))
	for _, r := range rows {
		score := 0.0 // a run without a score scored nothing
		if r.Score != nil {
			score = *r.Score
		}
		runs = append(runs, anchor.Run{ID: r.ID, HarnessHash: r.HarnessHash, TaskHash: r.TaskHash,
			TaskID: r.TaskID, Split: r.Split, Model: r.Model, Repeat: r.Repeat, Score: score,
			Passed: r.Passed, Total: r.Total, TokensIn: r.TokensIn, TokensOut: r.TokensOut,
			WallMS: r.WallMS, ExitCode: r.ExitCode, TracePath: r.TracePath, Outcome: anchor.Outcome(r.Outcome),
			Error: r.Error, CreatedAt: r.CreatedAt})
	}
	return runs, nil
}
