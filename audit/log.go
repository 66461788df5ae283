package audit

import (
	"context"
	"fmt"

	"ratchet/anchor"
	"ratchet/internal/ledgerdb"
	"ratchet/internal/show"
)

// Log returns the generations as lines, oldest first: train and holdout
// before and after side by side with the gate's evidence, the decision and
// its reason, and what the decision cost; * marks the head. A last line
// counts the runs another judge scored (another anchor build or Go
// toolchain than the one that scored the latest run), which the run cache
// no longer serves. Every line is one printable line.
func (l Ledger) Log(ctx context.Context) ([]string, error) {
	gens, err := ledgerdb.Generations(ctx, l.db())
	if err != nil {
		return nil, err
	}
	if len(gens) == 0 {
		return []string{"no generations yet: anchor init --harness DIR measures generation 0"}, nil
	}
	lines := make([]string, 0, len(gens)+1)
	for _, g := range gens {
		head := "  "
		if g.Head {
			head = " *"
		}
		cost := fmt.Sprintf("[cost: %d runs, %d cached, %d requests, %d upstream tokens", g.Runs, g.RunsCached,
			g.Requests, g.Upstream)
		if g.Stopped != "" {
			cost += "; stopped at " + g.Stopped
		}
		line := fmt.Sprintf("%3d%s %-11s train %s  holdout %s  %-26s %s %s]", g.Gen, head, g.Decision,
			side(g.TrainPre, g.TrainPost, g.TrainFixed, g.TrainBroken, g.TrainP),
			side(g.HoldoutPre, g.HoldoutPost, g.HoldoutFixed, g.HoldoutBroken, g.HoldoutP), g.Component, g.Reason, cost)
		lines = append(lines, show.Line(line, 2000))
	}
	// The newest judge is the one that scored the latest run: the run cache
	// serves it only its own runs.
	stale, err := ledgerdb.Scan[struct {
		N int `db:"n"`
	}](ctx, l.db(), `SELECT COUNT(*) AS n FROM runs WHERE outcome != ?1 AND judge != (SELECT judge FROM runs
		WHERE outcome != ?1 ORDER BY created_at DESC, rowid DESC LIMIT 1)`, anchor.OutcomeInfra)
	if err != nil {
		return nil, err
	}
	if len(stale) == 1 && stale[0].N > 0 {
		lines = append(lines, fmt.Sprintf("%d runs were scored by another judge than the newest; they run again",
			stale[0].N))
	}
	return lines, nil
}

// side is one split of a log line: the means before and after ("-" where
// none), then the units fixed and broken and the sign test's p where the
// gate compared.
func side(pre, post *float64, fixed, broken *int, p *float64) string {
	mean := func(v *float64) string {
		if v == nil {
			return "-"
		}
		return fmt.Sprintf("%.3f", *v)
	}
	s := fmt.Sprintf("%5s -> %5s", mean(pre), mean(post))
	if p != nil && fixed != nil && broken != nil {
		s += fmt.Sprintf(" (+%d -%d p=%.3f)", *fixed, *broken, *p)
	}
	return s
}

// Generations returns the generations as the ledger's rows, keyed by column
// name, with head true on the head: what ratchet log --json prints.
func (l Ledger) Generations(ctx context.Context) ([]map[string]any, error) {
	return ledgerdb.Query(ctx, l.db(), `SELECT *, gen = (SELECT gen FROM head) AS head FROM generations ORDER BY gen`)
}
