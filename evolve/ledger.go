package evolve

import (
	"context"
	"errors"
	"path/filepath"
	"slices"

	"ratchet/anchor"
	"ratchet/internal/ledgerdb"
)

// The evolver reads the ledger read-only through ledgerdb, by the column
// names the anchor documents, into the anchor's own row types. Only train
// runs are ever read here; of holdout it reads the decision alone.

// ledger is one ledger's read-only view, as the evolver needs it.
type ledger struct {
	path  string
	model string // the ledger's frozen model (meta "model")
}

func (c Config) openLedger(ctx context.Context) (ledger, error) {
	l := ledger{path: filepath.Join(c.Home, "ledger.db")}
	rows, err := ledgerdb.Query(ctx, l.path, `SELECT value FROM meta WHERE key = 'model'`)
	if err != nil {
		return l, err
	}
	if len(rows) == 1 {
		l.model = str(rows[0]["value"])
	}
	return l, nil
}

// gens returns every generation, oldest first, with Head set on the head.
func (l ledger) gens(ctx context.Context) ([]anchor.Gen, error) {
	rows, err := ledgerdb.Query(ctx, l.path, `SELECT *, gen = (SELECT gen FROM head) AS is_head FROM generations ORDER BY gen`)
	if err != nil {
		return nil, err
	}
	gens := []anchor.Gen{}
	for _, r := range rows {
		g := anchor.Gen{Gen: int(integer(r["gen"])), Hash: str(r["harness_hash"]), DiffHash: str(r["diff_hash"]),
			Component: str(r["component"]), Hypothesis: str(r["hypothesis"]), Decision: str(r["decision"]), Reason: str(r["reason"]),
			TrainPre: number(r["train_pre"]), TrainPost: number(r["train_post"]), HoldoutPre: number(r["holdout_pre"]), HoldoutPost: number(r["holdout_post"]), Tokens: integer(r["tokens"]), CreatedAt: str(r["created_at"]),
			Goal: str(r["goal"]), Head: integer(r["is_head"]) == 1}
		if p, ok := r["parent_gen"].(int64); ok {
			parent := int(p)
			g.Parent = &parent
		}
		gens = append(gens, g)
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
	rows, err := ledgerdb.Query(ctx, l.path, `SELECT task_id, AVG(score) AS score FROM runs
		WHERE harness_hash = ? AND split = 'train' AND model = ? AND outcome != 'infra' GROUP BY task_id`, hash, l.model)
	if err != nil {
		return nil, err
	}
	scores := map[string]float64{}
	for _, r := range rows {
		if s := number(r["score"]); s != nil {
			scores[str(r["task_id"])] = *s
		}
	}
	return scores, nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func integer(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case float64:
		return int64(n)
	}
	return 0
}

func number(v any) *float64 {
	switch n := v.(type) {
	case float64:
		return &n
	case int64:
		f := float64(n)
		return &f
	}
	return nil
}

// trainRuns returns a harness's latest train run of every task and repeat
// under the ledger's model: with repeats, each draw is there to compare.
func (l ledger) trainRuns(ctx context.Context, hash string) ([]anchor.Run, error) {
	rows, err := ledgerdb.Query(ctx, l.path, `SELECT * FROM runs r WHERE split = 'train' AND harness_hash = ? AND model = ?
		AND created_at = (SELECT MAX(created_at) FROM runs WHERE task_id = r.task_id AND repeat = r.repeat AND split = 'train'
			AND harness_hash = r.harness_hash AND model = r.model)
		ORDER BY task_id, repeat`, hash, l.model)
	if err != nil {
		return nil, err
	}
	runs := []anchor.Run{}
	for _, r := range rows {
		score := 0.0
		if s := number(r["score"]); s != nil {
			score = *s
		}
		runs = append(runs, anchor.Run{ID: str(r["id"]), HarnessHash: str(r["harness_hash"]), TaskHash: str(r["task_hash"]),
			TaskID: str(r["task_id"]), Split: str(r["split"]), Model: str(r["model"]), Repeat: int(integer(r["repeat"])), Score: score,
			Passed: int(integer(r["passed"])), Total: int(integer(r["total"])), TokensIn: integer(r["tokens_in"]), TokensOut: integer(r["tokens_out"]),
			WallMS: integer(r["wall_ms"]), ExitCode: int(integer(r["exit_code"])), TracePath: str(r["trace_path"]), Outcome: anchor.Outcome(str(r["outcome"])),
			Error: str(r["error"]), CreatedAt: str(r["created_at"])})
	}
	return runs, nil
}
