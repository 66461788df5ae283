package plan

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"

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
	Train, Holdout []TaskScores
}

// TaskScores are one task's repeat scores, in repeat order, and its group
// (its id in a ledger from before groups).
type TaskScores struct {
	ID, Group string
	Scores    []float64
}

// Load reads the head's runs from the ledger in home, read-only. A task's
// repeat counts once, from its latest run (an errored run is re-run and the
// re-run is what the gate compared); runs whose outcome is infra are never
// a score. Ledgers from before repeats (no repeat or outcome column) read as
// one repeat per task.
func Load(ctx context.Context, home string) (*Observed, error) {
	path := filepath.Join(home, "ledger.db")
	q := func(query string, args ...any) ([]map[string]any, error) {
		return ledgerdb.Query(ctx, path, query, args...)
	}
	head, err := q(`SELECT g.gen AS gen, g.harness_hash AS hash FROM head h JOIN generations g ON g.gen = h.gen`)
	if err != nil {
		return nil, err
	}
	if len(head) == 0 {
		return nil, fmt.Errorf("the ledger in %s has no head: run anchor init first", home)
	}
	meta, err := q(`SELECT key, value FROM meta`)
	if err != nil {
		return nil, err
	}
	o := &Observed{Gen: int(asInt(head[0]["gen"])), Hash: asString(head[0]["hash"]), K: 1, Alpha: 0.05}
	for _, m := range meta {
		v := asString(m["value"])
		switch asString(m["key"]) {
		case "model":
			o.Model = v
		case "repeats":
			if k, err := strconv.Atoi(v); err == nil && k >= 1 {
				o.K = k
			}
		case "alpha":
			if a, err := strconv.ParseFloat(v, 64); err == nil && a > 0 && a < 1 {
				o.Alpha = a
			}
		}
	}
	cols, err := q(`SELECT name FROM pragma_table_info('runs')`)
	if err != nil {
		return nil, err
	}
	repeat, outcome, group := "0", "''", "task_id"
	for _, c := range cols {
		switch asString(c["name"]) {
		case "repeat":
			repeat = `"repeat"`
		case "outcome":
			outcome = "outcome"
		case "group_id":
			group = "iif(group_id = '', task_id, group_id)"
		}
	}
	runs, err := q(`SELECT task_id, split, score, `+repeat+` AS rep, `+group+` AS grp FROM runs
		WHERE harness_hash = ? AND model = ? AND split IN ('train', 'holdout') AND `+outcome+` != 'infra'
		ORDER BY created_at, rowid`, o.Hash, o.Model)
	if err != nil {
		return nil, err
	}
	type key struct {
		split, task string
		rep         int64
	}
	latest, groups := map[key]float64{}, map[string]string{}
	for _, r := range runs {
		latest[key{asString(r["split"]), asString(r["task_id"]), asInt(r["rep"])}] = asFloat(r["score"])
		groups[asString(r["task_id"])] = asString(r["grp"])
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
	if len(o.Holdout) == 0 {
		return nil, fmt.Errorf("the head (generation %d) has no holdout runs for model %q in %s: run anchor eval --split holdout first", o.Gen, o.Model, home)
	}
	return o, nil
}

func asString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

func asInt(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	}
	return 0
}

func asFloat(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}
