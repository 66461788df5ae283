package anchor

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A ledger built through real applies (a baseline, a leak rejected before
// evaluation, a train tie, an accept and a holdout tie) verifies generation
// by generation at zero model tokens; then a run's score, a snapshot file, a
// task file and a stored report are tampered with, one at a time, and verify
// names each.
func TestVerifyRederivesEveryDecision(t *testing.T) {
	e := newEnv(t, repeat(suiteModel(), 1000)...)
	for _, id := range []string{"t-a", "t-b"} { // one kind: the gate counts them as one group
		dir := addTask(t, e.suite, "train", id)
		b, _ := os.ReadFile(filepath.Join(dir, "task.toml"))
		writeFiles(t, dir, map[string]string{"task.toml": string(b) + "group = \"sum\"\n"})
	}
	addTask(t, e.suite, "holdout", "h-a")
	dir := copyHarness(t)
	e.a.Alpha = 0.5 // one holdout task: seed 004's rule, as in TestApplyRule
	if err := e.a.Init(ctx(), dir); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"Check sum in t-a first.", "Be brief.", "Be CAREFUL.", "Be THOROUGH."} {
		prompt := readHarness(t, dir, "system_prompt.md")
		diff := makeDiff(t, dir, map[string]string{"system_prompt.md": prompt + line + "\n"})
		if err := e.a.Apply(ctx(), e.candidate(t, "system_prompt.md", diff)); err != nil {
			t.Fatal(err)
		}
	}
	gens := must(e.a.gens(""))
	var decisions []string
	for _, g := range gens {
		decisions = append(decisions, g.Decision)
	}
	if got := strings.Join(decisions, " "); got != "baseline reject reject accept reject" {
		t.Fatalf("decisions %s", got)
	}
	if g := gens[3]; *g.TrainFixed != 1 || *g.TrainPre != 0.5 || *g.TrainPost != 0.75 {
		t.Fatalf("accept: train %v -> %v, %d fixed; want one group of two tasks, 0.5 -> 0.75", *g.TrainPre, *g.TrainPost, *g.TrainFixed)
	}
	upstream := len(e.srv.Requests())
	verify := func(gen int) (string, error) {
		e.out.Reset()
		err := e.a.Verify(gen, false)
		return e.out.String(), err
	}
	for _, g := range gens {
		out, err := verify(g.Gen)
		if err != nil || !strings.Contains(out, "verified") {
			t.Errorf("generation %d: %v\n%s", g.Gen, err, out)
		}
	}
	if n := len(e.srv.Requests()); n != upstream {
		t.Errorf("verify sent %d model requests", n-upstream)
	}
	e.out.Reset()
	if err := e.a.Verify(-1, true); err != nil {
		t.Fatal(err)
	}
	var certs []Certificate
	if err := json.Unmarshal(e.out.Bytes(), &certs); err != nil || len(certs) != 5 {
		t.Fatalf("verify --json: %v\n%s", err, e.out.String())
	}
	if c := certs[3]; c.JudgeBuild == "" || c.SuiteHash == "" || len(c.Scores) != 6 || c.Evidence["holdout"].Fixed != 1 {
		t.Errorf("the accept's certificate: %+v", c)
	}

	accept := gens[3]
	var runID string
	for id, s := range certs[3].Scores {
		var split string
		e.a.db.QueryRow(`SELECT split FROM runs WHERE id = ?`, id).Scan(&split)
		if s == 1 && split == "train" {
			runID = id
		}
	}
	report := e.a.path("reports", runID+".json.gz")
	saved, _ := os.ReadFile(report)
	promptFile := filepath.Join(e.a.path("snapshots", accept.Hash), "system_prompt.md")
	prompt, _ := os.ReadFile(promptFile)
	taskFile := filepath.Join(e.suite, "holdout", "h-a", "hidden", "sum_test.go")
	task, _ := os.ReadFile(taskFile)
	var runIDs string
	e.a.db.QueryRow(`SELECT run_ids FROM generations WHERE gen = 3`).Scan(&runIDs)
	tampers := []struct {
		name          string
		tamper, undo  func()
		gen           int
		discrepancies []string
	}{
		{"a run's score", func() { e.a.db.Exec(`UPDATE runs SET score = 0.5 WHERE id = ?`, runID) },
			func() { e.a.db.Exec(`UPDATE runs SET score = 1 WHERE id = ?`, runID) }, 3,
			[]string{"run " + runID, "the ledger says score 0.500", "re-derives 1.000"}},
		{"a snapshot file", func() { os.WriteFile(promptFile, append(bytes.Clone(prompt), "x"...), 0o644) },
			func() { os.WriteFile(promptFile, prompt, 0o644) }, 3,
			[]string{"snapshot " + accept.Hash, "no longer matches its hash"}},
		{"a task file", func() { os.WriteFile(taskFile, append(bytes.Clone(task), "\n"...), 0o644) },
			func() { os.WriteFile(taskFile, task, 0o644) }, 0,
			[]string{"task holdout/h-a", "no longer matches the hash"}},
		{"a stored report", func() { os.WriteFile(report, failed(t, saved), 0o644) },
			func() { os.WriteFile(report, saved, 0o644) }, 3,
			[]string{"run " + runID, "the ledger says score 1.000", "re-derives 0.500"}},
		{"a run dropped from an accept's record", func() {
			lines := strings.SplitAfter(runIDs, "\n")
			k := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "train post ") })
			e.a.db.Exec(`UPDATE generations SET run_ids = ? WHERE gen = 3`, strings.Join(slices.Delete(lines, k, k+1), ""))
		}, func() { e.a.db.Exec(`UPDATE generations SET run_ids = ? WHERE gen = 3`, runIDs) },
			3, []string{"generation 3 was accepted on 1 of the 2 train tasks on disk"}},
		{"the recorded evidence", func() { e.a.db.Exec(`UPDATE generations SET holdout_broken = 1 WHERE gen = 3`) },
			func() { e.a.db.Exec(`UPDATE generations SET holdout_broken = 0 WHERE gen = 3`) }, 3,
			[]string{"the ledger says accept", `"holdout":[0.5,1,1,1,`, `"holdout":[0.5,1,1,0,`}},
	}
	for _, tt := range tampers {
		tt.tamper()
		out, err := verify(tt.gen)
		tt.undo()
		if err == nil || strings.Contains(out, "verified") {
			t.Errorf("%s: verify passed: %s", tt.name, out)
		}
		for _, want := range tt.discrepancies {
			if !strings.Contains(out, want) {
				t.Errorf("%s: %q does not name %q", tt.name, out, want)
			}
		}
		if out, err := verify(tt.gen); err != nil {
			t.Errorf("%s undone: %v %s", tt.name, err, out)
		}
	}
	// A reason holds what a candidate named (its files, its component): the
	// certificates print it as data, as a line and as JSON.
	e.a.db.Exec(`UPDATE generations SET reason = reason || ? WHERE gen = 3`, "\x1b]52;c;eA==\x07\u202e\u0085")
	for _, asJSON := range []bool{false, true} {
		e.out.Reset()
		e.a.Verify(3, asJSON)
		if out := e.out.String(); strings.ContainsAny(out, "\x1b\x07\u202e\u0085") || !asJSON && !strings.Contains(out, "52;c;eA==") {
			t.Errorf("verify (json %v) printed the reason's escapes raw, or dropped it: %q", asJSON, out)
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
	var s Scored
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
