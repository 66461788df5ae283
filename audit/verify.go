// Package audit checks an anchor's ledger from outside the judge, for
// people: Verify re-derives every decision from the stored scoring reports
// and the suite on disk at zero model tokens, and Log lists the generations.
//
// It reads the ledger only through internal/ledgerdb (read-only, holdout text
// withheld, every string made printable) and decides through the anchor's
// own pure functions (anchor.Count, anchor.GateRuns, anchor.Forgery): it
// checks by the rule the anchor applied, and can change nothing the anchor
// keeps. It imports the anchor, internal/ledgerdb and internal/show.
package audit

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"ratchet/anchor"
	"ratchet/internal/ledgerdb"
)

// Ledger is an anchor's home (the folder of ledger.db) and the task suite
// its runs were scored on.
type Ledger struct {
	Home, Tasks string
}

func (l Ledger) db() string { return filepath.Join(l.Home, "ledger.db") }

// Certificate is what Verify re-derived for one generation: the harness,
// the suite (the hash of the task hashes its runs were scored on), every
// run's score by id, the gate's evidence per split, who scored the runs
// and who re-derived them, and the first discrepancy ("" when verified).
type Certificate struct {
	Gen         int                        `json:"gen"`
	Decision    string                     `json:"decision"`
	Reason      string                     `json:"reason"`
	HarnessHash string                     `json:"harness_hash"`
	SuiteHash   string                     `json:"suite_hash"`
	Judges      []string                   `json:"judges"`   // of its runs: the anchor build and Go toolchain
	Verifier    string                     `json:"verifier"` // the build that re-derived it
	Scores      map[string]float64         `json:"scores"`
	Evidence    map[string]anchor.Evidence `json:"evidence"`
	Discrepancy string                     `json:"discrepancy"`
}

// Verify re-derives the decision of generation gen, or of every decided
// generation when gen is negative: it re-hashes the snapshots and each
// task folder, re-scores each run through anchor.Count from the report
// kept in reports/<run>.json.gz, and decides again through anchor.GateRuns
// under the ledger's frozen alpha. A pending or interrupted generation has
// no decision to verify. An error means the ledger could not be read; a
// decision that does not re-derive is a certificate's Discrepancy.
func (l Ledger) Verify(ctx context.Context, gen int) ([]Certificate, error) {
	meta, err := ledgerdb.Meta(ctx, l.db())
	if err != nil {
		return nil, err
	}
	alpha := 0.05 // a ledger from before alpha was frozen ran at the default
	if v := meta["alpha"]; v != "" {
		if alpha, err = strconv.ParseFloat(v, 64); err != nil {
			return nil, fmt.Errorf("the ledger's alpha %q is not a number", v)
		}
	}
	gens, err := ledgerdb.Generations(ctx, l.db())
	if err != nil {
		return nil, err
	}
	v := verifier{Ledger: l, alpha: alpha, gens: map[int]ledgerdb.Gen{}, tasks: map[string]task{}}
	for _, g := range gens {
		v.gens[g.Gen] = g
	}
	certs := []Certificate{}
	for _, g := range gens {
		if gen >= 0 && g.Gen != gen || g.Decision == "pending" || g.Decision == "interrupted" {
			continue
		}
		if v.runs == nil {
			if v.runs, err = runsByID(ctx, l.db()); err != nil {
				return nil, err
			}
		}
		c := Certificate{Gen: g.Gen, Decision: g.Decision, Reason: g.Reason, HarnessHash: g.Hash,
			Verifier: build(), Scores: map[string]float64{}, Evidence: map[string]anchor.Evidence{}}
		c.Discrepancy = v.rederive(g, &c)
		certs = append(certs, c)
	}
	if len(certs) == 0 {
		return nil, fmt.Errorf("no decided generation %d in this ledger; pick one from ratchet log", gen)
	}
	return certs, nil
}

// verifier holds what one Verify reads once: the generations by number,
// the runs by id, and each task of the suite as read from disk.
type verifier struct {
	Ledger
	alpha float64
	gens  map[int]ledgerdb.Gen
	runs  map[string]ledgerdb.Run
	tasks map[string]task
}

// task is a task folder read from disk, or why it could not be.
type task struct {
	t      anchor.Task
	hash   string
	hidden map[string][]byte
	err    error
}

// runsByID reads the runs a decision may name.
func runsByID(ctx context.Context, db string) (map[string]ledgerdb.Run, error) {
	rows, err := ledgerdb.Scan[ledgerdb.Run](ctx, db, `SELECT id, harness_hash, task_hash, task_id, split, score,
		outcome, error, judge FROM runs`)
	if err != nil {
		return nil, err
	}
	runs := make(map[string]ledgerdb.Run, len(rows))
	for _, r := range rows {
		runs[r.ID] = r
	}
	return runs, nil
}

// rederive re-hashes g's snapshots, re-scores its runs and decides again
// through anchor.GateRuns; it returns the first discrepancy, or "".
func (v *verifier) rederive(g ledgerdb.Gen, c *Certificate) string {
	harness := map[string]string{"pre": g.Hash, "post": g.Hash}
	if g.Parent != nil {
		if p, ok := v.gens[*g.Parent]; ok {
			harness["pre"] = p.Hash
		}
	}
	for _, h := range harness {
		if err := v.snapshot(h); h != "" && err != nil {
			return err.Error()
		}
	}
	if g.TrainPost != nil && g.RunIDs == "" {
		return "the ledger kept no run ids for this generation: it was decided before verify existed"
	}
	runs, suite, judges := map[string][]anchor.Run{}, map[string][]byte{}, map[string]bool{}
	f := strings.Fields(g.RunIDs)
	for i := 0; i+2 < len(f); i += 3 { // split, side, run id
		r, err := v.rescore(f[i+2])
		if err == nil && r.HarnessHash != harness[f[i+1]] {
			err = fmt.Errorf("run %s is of harness %.12s, not %.12s", r.ID, r.HarnessHash, harness[f[i+1]])
		}
		if err != nil {
			return err.Error()
		}
		runs[f[i]+" "+f[i+1]] = append(runs[f[i]+" "+f[i+1]], r)
		c.Scores[r.ID], suite[r.Split+"/"+r.TaskID] = r.Score, []byte(r.TaskHash)
		judges[r.Judge] = true
	}
	c.SuiteHash, c.Judges = anchor.HashOf(suite), slices.Sorted(maps.Keys(judges))
	for _, split := range []string{"train", "holdout"} { // an accept saw every task of both splits
		dirs, _ := filepath.Glob(filepath.Join(v.Tasks, split, "*", "task.toml"))
		ran := map[string]bool{}
		for _, r := range runs[split+" post"] {
			ran[r.TaskID] = true
		}
		if g.Decision == "accept" && len(ran) < len(dirs) {
			return fmt.Sprintf("generation %d was accepted on %d of the %d %s tasks on disk",
				g.Gen, len(ran), len(dirs), split)
		}
	}
	d, why := g, ""
	for _, split := range []string{"train", "holdout"} {
		pre, post := runs[split+" pre"], runs[split+" post"]
		e, reason := anchor.GateRuns(split, pre, post, v.alpha)
		head, _ := anchor.GateRuns(split, post, post, 1) // a new head's evaluation: its means alone
		switch {
		case post == nil:
		case pre == nil && split == "train":
			d.TrainPost = &head.Post
		case pre == nil:
			d.HoldoutPost = &head.Post
		default:
			record(&d, split, e)
			c.Evidence[split], why = e, cmp.Or(why, anchor.Forgery(split, post), reason)
		}
	}
	if runs["train pre"] != nil && why != "" { // evaluated: the gate's reason rejects
		d.Decision, d.Reason = "reject", why
	} else if runs["train pre"] != nil {
		d.Decision = "accept"
	}
	if strings.HasPrefix(g.Reason, "stopped after ") { // the screen rejected early: its draw is not re-derived
		d.Decision, d.Reason = "reject", g.Reason
	}
	if got, want := recorded(d), recorded(g); got != want || d.Decision != g.Decision || d.Reason != g.Reason {
		return fmt.Sprintf("the ledger says %s %s (%s), re-derived %s %s (%s)", g.Decision, want, g.Reason,
			d.Decision, got, d.Reason)
	}
	return ""
}

// record writes a split's evidence into g, as the anchor records it.
func record(g *ledgerdb.Gen, split string, e anchor.Evidence) {
	if split == "train" {
		g.TrainPre, g.TrainPost, g.TrainP = &e.Pre, &e.Post, &e.P
		g.TrainFixed, g.TrainBroken = &e.Fixed, &e.Broken
	} else {
		g.HoldoutPre, g.HoldoutPost, g.HoldoutP = &e.Pre, &e.Post, &e.P
		g.HoldoutFixed, g.HoldoutBroken = &e.Fixed, &e.Broken
	}
}

// recorded is g's record of the gate, as JSON.
func recorded(g ledgerdb.Gen) string {
	b, _ := json.Marshal(map[string]any{
		"train":   []any{g.TrainPre, g.TrainPost, g.TrainFixed, g.TrainBroken, g.TrainP},
		"holdout": []any{g.HoldoutPre, g.HoldoutPost, g.HoldoutFixed, g.HoldoutBroken, g.HoldoutP},
	})
	return string(b)
}

// snapshot checks that stored snapshot hash still hashes as its name.
func (v *verifier) snapshot(hash string) error {
	files, err := anchor.ReadTree(filepath.Join(v.Home, "snapshots", hash), true)
	if err != nil {
		return fmt.Errorf("snapshot %s is missing or unreadable: %v", hash, err)
	}
	if anchor.HashOf(files) != hash {
		return fmt.Errorf("snapshot %s no longer matches its hash", hash)
	}
	return nil
}

// task reads the task of a split once.
func (v *verifier) task(split, id string) task {
	key := split + "/" + id
	if t, ok := v.tasks[key]; ok {
		return t
	}
	var t task
	t.t, t.err = anchor.LoadTask(filepath.Join(v.Tasks, split, id))
	if t.err == nil {
		var files map[string][]byte
		files, t.err = anchor.ReadTree(t.t.Dir, true)
		t.hash = anchor.HashOf(files)
	}
	if t.err == nil {
		// a task without hidden/ is scored by its command alone
		t.hidden, _ = anchor.ReadTree(filepath.Join(t.t.Dir, "hidden"), true)
	}
	v.tasks[key] = t
	return t
}

// rescore returns run id with its score re-derived through anchor.Count
// from its stored report and its task on disk, which must still hash as
// the run recorded. A harness that did not build was never scored: it
// scores 0.
func (v *verifier) rescore(id string) (anchor.Run, error) {
	row, ok := v.runs[id]
	if !ok {
		return anchor.Run{}, fmt.Errorf("run %s is missing from the ledger", id)
	}
	r := anchor.Run{ID: row.ID, HarnessHash: row.HarnessHash, TaskHash: row.TaskHash, TaskID: row.TaskID,
		Split: row.Split, Outcome: anchor.Outcome(row.Outcome), Error: row.Error, Judge: row.Judge}
	if row.Score != nil {
		r.Score = *row.Score
	}
	t := v.task(r.Split, r.TaskID)
	if t.err != nil || t.hash != r.TaskHash {
		return r, fmt.Errorf("task %s/%s on disk no longer matches the hash its run %s recorded; "+
			"point --tasks at its suite", r.Split, r.TaskID, id)
	}
	r.Group = t.t.Group
	s := anchor.Scored{Total: 1}
	b, err := os.ReadFile(filepath.Join(v.Home, "reports", id+".json.gz"))
	if err == nil || r.Outcome != anchor.OutcomeBuild {
		z, zerr := gzip.NewReader(bytes.NewReader(b))
		if err != nil || zerr != nil || json.NewDecoder(z).Decode(&s) != nil {
			return r, fmt.Errorf("run %s (task %s) has no readable stored report to re-score", id, r.TaskID)
		}
	}
	if rep := s.Report; rep != nil {
		s = anchor.Count(t.t, rep.Out, rep.Exit, rep.JUnit, t.hidden, rep.Mods, rep.Canaries, "")
	}
	got := float64(s.Passed) / float64(max(s.Total, 1))
	if got != r.Score || (s.Outcome == anchor.OutcomeForged) != (r.Outcome == anchor.OutcomeForged) {
		return r, fmt.Errorf("run %s (task %s): the ledger says score %.3f (%s), its report re-derives %.3f (%s)",
			id, r.TaskID, r.Score, r.Outcome, got, cmp.Or(s.Outcome, anchor.OutcomeOK))
	}
	return r, nil
}

// build names the program that re-derives: the sha256 of its executable and
// its Go toolchain.
var build = sync.OnceValue(func() string {
	exe, _ := os.Executable()
	self, _ := os.ReadFile(exe)
	sum := sha256.Sum256(self)
	return hex.EncodeToString(sum[:8]) + " " + runtime.Version()
})
