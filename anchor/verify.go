package anchor

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Certificate is what anchor verify re-derived for one generation at zero
// model tokens: the judge's build, the harness and the suite (the hash of
// the task hashes its runs were scored on), every run's score by id, the
// gate's evidence per split, and the first discrepancy ("" when verified).
type Certificate struct {
	Gen                                          int
	Decision, JudgeBuild, HarnessHash, SuiteHash string
	Scores                                       map[string]float64
	Evidence                                     map[string]Evidence
	Discrepancy                                  string
}

// Verify re-derives the decision of generation gen, or of every one when gen
// is negative, from the ledger and the suite on disk, and prints a
// certificate for each: a line, or JSON.
func (a *Anchor) Verify(gen int, asJSON bool) error {
	gs, err := a.gens(`WHERE (? < 0 OR gen = ?) AND decision NOT IN ('pending', 'interrupted')`, gen, gen)
	if err != nil || len(gs) == 0 {
		return cmp.Or(err, fmt.Errorf("no decided generation %d in this ledger; pick one from anchor log", gen))
	}
	certs, bad := []Certificate{}, 0
	for _, g := range gs {
		c := Certificate{Gen: g.Gen, Decision: g.Decision, JudgeBuild: anchorBuild(), HarnessHash: g.Hash,
			Scores: map[string]float64{}, Evidence: map[string]Evidence{}}
		c.Discrepancy = a.rederive(g, &c)
		certs = append(certs, c)
		if c.Discrepancy != "" {
			bad++
		}
		if !asJSON {
			line := fmt.Sprintf("generation %d %s, harness %.12s, suite %.12s, %d runs: %s", g.Gen, g.Decision,
				g.Hash, c.SuiteHash, len(c.Scores), cmp.Or(c.Discrepancy, "verified: "+g.Reason))
			fmt.Fprintln(a.Out, Printable(line, 4000)) // a reason names the candidate's files
		}
	}
	if asJSON {
		if err := a.printJSON(certs, nil); err != nil {
			return err
		}
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d generations did not verify (judge build %.12s)", bad, len(gs), anchorBuild())
	}
	return nil
}

// rederive re-hashes g's snapshots, re-scores its runs and decides again
// through GateRuns; it returns the first discrepancy, or "".
func (a *Anchor) rederive(g Gen, c *Certificate) string {
	harness := map[string]string{"pre": g.Hash, "post": g.Hash}
	if ps, _ := a.gens(`WHERE gen = ?`, g.Parent); len(ps) == 1 {
		harness["pre"] = ps[0].Hash
	}
	for _, h := range harness {
		if _, err := a.readSnapshot(h); h != "" && err != nil {
			return err.Error()
		}
	}
	if g.TrainPost != nil && g.RunIDs == "" {
		return "the ledger kept no run ids for this generation: it was decided before anchor verify"
	}
	runs, tasks, f := map[string][]Run{}, map[string][]byte{}, strings.Fields(g.RunIDs)
	for i := 0; i+2 < len(f); i += 3 { // split, side, run id
		r, err := a.rescore(f[i+2])
		if err == nil && r.HarnessHash != harness[f[i+1]] {
			err = fmt.Errorf("run %s is of harness %.12s, not %.12s", r.ID, r.HarnessHash, harness[f[i+1]])
		}
		if err != nil {
			return err.Error()
		}
		runs[f[i]+" "+f[i+1]] = append(runs[f[i]+" "+f[i+1]], r)
		c.Scores[r.ID], tasks[r.Split+"/"+r.TaskID] = r.Score, []byte(r.TaskHash)
	}
	c.SuiteHash = HashOf(tasks)
	for _, split := range []string{"train", "holdout"} { // an accept saw every task of both splits
		dirs, _ := filepath.Glob(filepath.Join(a.Tasks, split, "*", "task.toml"))
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
		e, reason := GateRuns(split, pre, post, a.Alpha)
		head, _ := GateRuns(split, post, post, 1) // a new head's evaluation: its means alone
		switch {
		case post == nil:
		case pre == nil && split == "train":
			d.TrainPost = &head.Post
		case pre == nil:
			d.HoldoutPost = &head.Post
		default:
			d.record(split, e)
			c.Evidence[split], why = e, cmp.Or(why, forgery(split, post), reason)
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
	if got, want := d.recorded(), g.recorded(); got != want || d.Decision != g.Decision || d.Reason != g.Reason {
		return fmt.Sprintf("the ledger says %s %s (%s), re-derived %s %s (%s)", g.Decision, want, g.Reason,
			d.Decision, got, d.Reason)
	}
	return ""
}

// recorded is g's record of the gate, as JSON.
func (g Gen) recorded() string {
	train := []any{g.TrainPre, g.TrainPost, g.TrainFixed, g.TrainBroken, g.TrainP}
	b, _ := json.Marshal(map[string]any{"train": train, "holdout": []any{g.HoldoutPre, g.HoldoutPost,
		g.HoldoutFixed, g.HoldoutBroken, g.HoldoutP}})
	return string(b)
}

// rescore reads run id and re-derives its score through count from its
// stored report and the task on disk, which must still hash as the run
// recorded. A harness that did not build was never scored: it scores 0.
func (a *Anchor) rescore(id string) (Run, error) {
	rs, err := scan(a.db, (*Run).fields, `SELECT `+runCols+` FROM runs WHERE id = ?`, id)
	if err != nil || len(rs) == 0 {
		return Run{}, cmp.Or(err, fmt.Errorf("run %s is missing from the ledger", id))
	}
	r := rs[0]
	t, err := LoadTask(filepath.Join(a.Tasks, r.Split, r.TaskID))
	files, err2 := ReadTree(t.Dir, true)
	if err != nil || err2 != nil || HashOf(files) != r.TaskHash {
		return r, fmt.Errorf("task %s/%s on disk no longer matches the hash its run %s recorded; "+
			"point --tasks at its suite", r.Split, r.TaskID, id)
	}
	r.Group = t.Group
	s := Scored{Total: 1}
	if b, err := os.ReadFile(a.path("reports", id+".json.gz")); err == nil || r.Outcome != OutcomeBuild {
		z, zerr := gzip.NewReader(bytes.NewReader(b))
		if err != nil || zerr != nil || json.NewDecoder(z).Decode(&s) != nil {
			return r, fmt.Errorf("run %s (task %s) has no readable stored report to re-score", id, r.TaskID)
		}
	}
	if rep := s.Report; rep != nil {
		hidden, _ := ReadTree(filepath.Join(t.Dir, "hidden"), true) // a task without hidden/ scores by its command
		s = count(t, rep.Out, rep.Exit, rep.JUnit, hidden, rep.Mods, rep.Canaries, "")
	}
	got := float64(s.Passed) / float64(max(s.Total, 1))
	if got != r.Score || (s.Outcome == OutcomeForged) != (r.Outcome == OutcomeForged) {
		return r, fmt.Errorf("run %s (task %s): the ledger says score %.3f (%s), its report re-derives %.3f (%s)",
			id, r.TaskID, r.Score, r.Outcome, got, cmp.Or(s.Outcome, OutcomeOK))
	}
	return r, nil
}
