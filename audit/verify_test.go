package audit

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ratchet/anchor"
	"ratchet/internal/ledgerdb"
)

// A ledger built through real applies (a baseline, a leak rejected before
// evaluation, a train tie, an accept and a holdout tie) verifies generation
// by generation at zero model tokens; then a run's score, a snapshot file, a
// task file, a stored report, an accept's record of its runs and its
// recorded evidence are tampered with, one at a time, and verify names each.
func TestVerifyRederivesEveryDecision(t *testing.T) {
	l := newLedger(t)
	for _, line := range []string{"Check m.go in t-a first.", "Be brief.", "Be CAREFUL.", "Be THOROUGH."} {
		l.apply(t, line)
	}
	ctx := context.Background()
	gens, err := ledgerdb.Generations(ctx, l.db())
	if err != nil {
		t.Fatal(err)
	}
	var decisions []string
	for _, g := range gens {
		decisions = append(decisions, g.Decision)
	}
	if got := strings.Join(decisions, " "); got != "baseline reject reject accept reject" {
		t.Fatalf("decisions %s", got)
	}
	if g := gens[3]; *g.TrainFixed != 1 || *g.TrainPre != 0 || *g.TrainPost != 0.5 {
		t.Fatalf("accept: train %v -> %v, %d fixed; want one group of two tasks, 0 -> 0.5", *g.TrainPre, *g.TrainPost, *g.TrainFixed)
	}
	upstream := len(l.srv.Requests())
	verify := func(gen int) Certificate {
		t.Helper()
		certs, err := l.Verify(ctx, gen)
		if err != nil || len(certs) != 1 {
			t.Fatalf("verify %d: %v, %d certificates", gen, err, len(certs))
		}
		return certs[0]
	}
	for _, g := range gens {
		if c := verify(g.Gen); c.Discrepancy != "" {
			t.Errorf("generation %d: %s", g.Gen, c.Discrepancy)
		}
	}
	certs, err := l.Verify(ctx, -1)
	if err != nil || len(certs) != 5 {
		t.Fatalf("verify every generation: %v, %d certificates", err, len(certs))
	}
	if n := len(l.srv.Requests()); n != upstream {
		t.Errorf("verify sent %d model requests", n-upstream)
	}
	if c := certs[3]; c.Verifier == "" || len(c.Judges) != 1 || c.SuiteHash == "" || len(c.Scores) != 6 ||
		c.Evidence["holdout"].Fixed != 1 {
		t.Errorf("the accept's certificate: %+v", c)
	}

	accept := gens[3]
	var runID string
	for id, s := range certs[3].Scores {
		rows, _ := ledgerdb.Scan[ledgerdb.Run](ctx, l.db(), `SELECT split, task_id FROM runs WHERE id = ?`, id)
		if s == 1 && len(rows) == 1 && rows[0].Split == "train" && rows[0].TaskID == "t-a" {
			runID = id
		}
	}
	diffFile := filepath.Join(l.Home, "diffs", accept.DiffHash+".diff")
	diff, _ := os.ReadFile(diffFile)
	report := filepath.Join(l.Home, "reports", runID+".json.gz")
	saved, _ := os.ReadFile(report)
	promptFile := filepath.Join(l.Home, "snapshots", accept.Hash, "system_prompt.md")
	prompt, _ := os.ReadFile(promptFile)
	taskDir := filepath.Join(l.Tasks, "holdout", "h-a")
	taskFile := filepath.Join(taskDir, "hidden", "three_test.go")
	task, _ := os.ReadFile(taskFile)
	tampers := []struct {
		name          string
		tamper, undo  func()
		gen           int
		discrepancies []string
	}{
		{"a run's score", func() { l.exec(t, `UPDATE runs SET score = 0.5 WHERE id = ?`, runID) },
			func() { l.exec(t, `UPDATE runs SET score = 1 WHERE id = ?`, runID) }, 3,
			[]string{"run " + runID, "the ledger says score 0.500", "re-derives 1.000"}},
		{"a snapshot file", func() { os.WriteFile(promptFile, append(bytes.Clone(prompt), "x"...), 0o644) },
			func() { os.WriteFile(promptFile, prompt, 0o644) }, 3,
			[]string{"snapshot " + accept.Hash, "no longer matches its hash"}},
		{"a task file", func() { os.WriteFile(taskFile, append(bytes.Clone(task), "\n"...), 0o644) },
			func() { os.WriteFile(taskFile, task, 0o644) }, 0,
			[]string{"task holdout/h-a", "no longer matches the hash"}},
		{"a task moved out of the suite", func() { os.Rename(taskDir, taskDir+".gone") },
			func() { os.Rename(taskDir+".gone", taskDir) }, 0,
			[]string{"task holdout/h-a of run", "is missing from the suite"}},
		{"a stored report", func() { os.WriteFile(report, failed(t, saved), 0o644) },
			func() { os.WriteFile(report, saved, 0o644) }, 3,
			[]string{"run " + runID, "the ledger says score 1.000", "re-derives 0.500"}},
		{"a run dropped from an accept's record", func() {
			lines := strings.SplitAfter(accept.RunIDs, "\n")
			k := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "train post ") })
			l.exec(t, `UPDATE generations SET run_ids = ? WHERE gen = 3`, strings.Join(slices.Delete(lines, k, k+1), ""))
		}, func() { l.exec(t, `UPDATE generations SET run_ids = ? WHERE gen = 3`, accept.RunIDs) },
			3, []string{"generation 3 was accepted on 1 of the 2 train tasks on disk"}},
		{"the recorded evidence", func() { l.exec(t, `UPDATE generations SET holdout_broken = 1 WHERE gen = 3`) },
			func() { l.exec(t, `UPDATE generations SET holdout_broken = 0 WHERE gen = 3`) }, 3,
			[]string{"the ledger says accept", `"holdout":[0,1,1,1,`, `"holdout":[0,1,1,0,`}},
		// A decision rewritten with its evidence and its runs to match: the
		// runs must still be those the anchor's evaluations make.
		{"an accept's incumbent runs dropped", func() { setRunIDs(t, l, 3, dropSide(accept.RunIDs, "pre")) },
			func() { setRunIDs(t, l, 3, accept.RunIDs) }, 3,
			[]string{"generation 3 was compared with its incumbent on 0 of the 2 train tasks on disk"}},
		{"a run counted twice", func() { setRunIDs(t, l, 3, accept.RunIDs+firstLine(accept.RunIDs, "train post ")) },
			func() { setRunIDs(t, l, 3, accept.RunIDs) }, 3, []string{"counts repeat 0 of train/", "twice"}},
		{"a holdout run counted as train", func() {
			setRunIDs(t, l, 3, strings.Replace(accept.RunIDs, "holdout post ", "train post ", 1))
		}, func() { setRunIDs(t, l, 3, accept.RunIDs) }, 3, []string{"is of split holdout, not train"}},
		{"a record of runs cut short", func() { setRunIDs(t, l, 3, accept.RunIDs[:40]+"…") },
			func() { setRunIDs(t, l, 3, accept.RunIDs) }, 3, []string{"record of its runs is cut or malformed"}},
		// A decision moved in the ledger's history.
		{"a parent that was not the head", func() { l.exec(t, `UPDATE generations SET parent_gen = 1 WHERE gen = 3`) },
			func() { l.exec(t, `UPDATE generations SET parent_gen = 0 WHERE gen = 3`) }, 3,
			[]string{"generation 3 was not decided against the head of its time (generation 0)"}},
		{"a baseline made later", func() { l.exec(t, `UPDATE generations SET decision = 'baseline' WHERE gen = 2`) },
			func() { l.exec(t, `UPDATE generations SET decision = 'reject' WHERE gen = 2`) }, 2,
			[]string{"generation 2 is a baseline after generation 0"}},
		{"the head moved by hand", func() { l.exec(t, `UPDATE head SET gen = 0`) },
			func() { l.exec(t, `UPDATE head SET gen = 3`) }, 3,
			[]string{"the ledger names generation 0 its head, but its history ends at generation 3"}},
		// The harness is the parent's with the diff the candidate submitted.
		{"the stored diff", func() { os.WriteFile(diffFile, append(bytes.Clone(diff), "\n"...), 0o644) },
			func() { os.WriteFile(diffFile, diff, 0o644) }, 3, []string{"diff " + accept.DiffHash, "no longer matches"}},
		{"another candidate's diff", func() {
			l.exec(t, `UPDATE generations SET diff_hash = ? WHERE gen = 3`, gens[2].DiffHash)
		}, func() { l.exec(t, `UPDATE generations SET diff_hash = ? WHERE gen = 3`, accept.DiffHash) }, 3,
			[]string{"generation 3's harness", "is not its parent's with its diff applied"}},
		// What the ledger names is read as a name, never as a path.
		{"a path for a harness", func() { l.exec(t, `UPDATE generations SET harness_hash = '../../../..' WHERE gen = 3`) },
			func() { l.exec(t, `UPDATE generations SET harness_hash = ? WHERE gen = 3`, accept.Hash) }, 3,
			[]string{`the ledger names harness "../../../..", which is no hash`}},
		{"a path for a task", func() { l.exec(t, `UPDATE runs SET task_id = '../holdout/h-a' WHERE id = ?`, runID) },
			func() { l.exec(t, `UPDATE runs SET task_id = 't-a' WHERE id = ?`, runID) }, 3,
			[]string{"run " + runID + ` names task "../holdout/h-a"`}},
	}
	for _, tt := range tampers {
		tt.tamper()
		c := verify(tt.gen)
		tt.undo()
		if c.Discrepancy == "" {
			t.Errorf("%s: verified", tt.name)
		}
		for _, want := range tt.discrepancies {
			if !strings.Contains(c.Discrepancy, want) {
				t.Errorf("%s: %q does not name %q", tt.name, c.Discrepancy, want)
			}
		}
		if c := verify(tt.gen); c.Discrepancy != "" {
			t.Errorf("%s undone: %s", tt.name, c.Discrepancy)
		}
	}
}

// failed is a stored report in which the hidden test TestThree failed.
func failed(t *testing.T, gz []byte) []byte {
	t.Helper()
	z, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	var s anchor.Scored
	if err := json.NewDecoder(z).Decode(&s); err != nil || s.Report == nil {
		t.Fatalf("report: %v %+v", err, s)
	}
	var out []string
	for _, l := range strings.Split(string(s.Report.Out), "\n") {
		if strings.Contains(l, `"Test":"TestThree"`) {
			l = strings.Replace(l, `"Action":"pass"`, `"Action":"fail"`, 1)
		}
		out = append(out, l)
	}
	s.Report.Out = []byte(strings.Join(out, "\n"))
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	json.NewEncoder(w).Encode(s)
	w.Close()
	return b.Bytes()
}

func setRunIDs(t *testing.T, l *ledger, gen int, ids string) {
	t.Helper()
	l.exec(t, `UPDATE generations SET run_ids = ? WHERE gen = ?`, ids, gen)
}

// dropSide is a record of runs without the lines of one side.
func dropSide(ids, side string) string {
	var kept []string
	for _, line := range strings.SplitAfter(ids, "\n") {
		if f := strings.Fields(line); len(f) != 3 || f[1] != side {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "")
}

// firstLine is the first line of a record of runs that starts with prefix.
func firstLine(ids, prefix string) string {
	for _, line := range strings.SplitAfter(ids, "\n") {
		if strings.HasPrefix(line, prefix) {
			return line
		}
	}
	return ""
}

// A ledger of two looks: the helpful edit fixes the one holdout task, p =
// 0.5, above the first look's alpha/5 and promising, so it is decided at the
// second look on three repeats of both harnesses (alpha 0.9, so that one
// holdout task can pass at all). Verify re-derives that, and names a record
// that drops the second look's runs or a ledger whose looks were rewritten.
func TestVerifyRederivesASecondLook(t *testing.T) {
	l := newLedgerAt(t, "0.9", "2")
	l.apply(t, "Be CAREFUL.")
	ctx := context.Background()
	gens, err := ledgerdb.Generations(ctx, l.db())
	if err != nil {
		t.Fatal(err)
	}
	g := gens[len(gens)-1]
	if g.Decision != "accept" || !strings.Contains(g.Reason, "(second look)") {
		t.Fatalf("the helpful edit: %s %s; want an accept at the second look", g.Decision, g.Reason)
	}
	verify := func() Certificate {
		t.Helper()
		certs, err := l.Verify(ctx, g.Gen)
		if err != nil || len(certs) != 1 {
			t.Fatalf("verify: %v, %d certificates", err, len(certs))
		}
		return certs[0]
	}
	if c := verify(); c.Discrepancy != "" || c.Evidence["holdout"].Look != 2 {
		t.Fatalf("verify: %q, holdout evidence %+v", c.Discrepancy, c.Evidence["holdout"])
	}
	later, err := ledgerdb.Scan[ledgerdb.Run](ctx, l.db(), `SELECT id FROM runs WHERE repeat > 0`)
	if err != nil || len(later) != 4 { // the one holdout task's repeats 1 and 2, for both harnesses
		t.Fatalf("%d runs past the first repeat (%v), want 4", len(later), err)
	}
	first := g.RunIDs
	for _, r := range later {
		first = strings.Replace(first, "holdout pre "+r.ID+"\n", "", 1)
		first = strings.Replace(first, "holdout post "+r.ID+"\n", "", 1)
	}
	setRunIDs(t, l, g.Gen, first)
	if c := verify(); !strings.Contains(c.Discrepancy, "the second look it was owed is missing") {
		t.Errorf("a record without its second look: %q", c.Discrepancy)
	}
	setRunIDs(t, l, g.Gen, g.RunIDs)
	l.exec(t, `UPDATE meta SET value = '1' WHERE key = 'looks'`)
	if c := verify(); !strings.Contains(c.Discrepancy, "repeat") {
		t.Errorf("a ledger of one look with a second look's runs: %q", c.Discrepancy)
	}
	l.exec(t, `UPDATE meta SET value = '2' WHERE key = 'looks'`)
	if c := verify(); c.Discrepancy != "" {
		t.Errorf("restored: %s", c.Discrepancy)
	}
}

// A ledger begun with anchor init --survey: the baseline's extra runs are
// charged to generation 0 but scored nowhere, and a second look finds the
// incumbent's repeats in the survey; verify re-derives both generations.
func TestVerifyASurveyedLedger(t *testing.T) {
	l := newLedgerAt(t, "0.9", "2", "--survey", "3")
	l.apply(t, "Be CAREFUL.")
	ctx := context.Background()
	gens, err := ledgerdb.Generations(ctx, l.db())
	if err != nil || len(gens) != 2 {
		t.Fatalf("%d generations (%v), want the baseline and the helpful edit", len(gens), err)
	}
	if b := gens[0]; b.Runs != 9 || strings.Count(b.RunIDs, "\n") != 3 {
		t.Errorf("the baseline charged %d runs and records %d: want 3 tasks x 3 charged, the first repeat recorded",
			b.Runs, strings.Count(b.RunIDs, "\n"))
	}
	if g := gens[1]; g.Decision != "accept" || !strings.Contains(g.Reason, "(second look)") {
		t.Fatalf("the helpful edit: %s %s; want an accept at the second look", g.Decision, g.Reason)
	}
	for _, g := range gens {
		certs, err := l.Verify(ctx, g.Gen)
		if err != nil || len(certs) != 1 || certs[0].Discrepancy != "" {
			t.Errorf("verify generation %d: %v, %+v", g.Gen, err, certs)
		}
	}
}
