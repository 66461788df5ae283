// Package audit checks an anchor's ledger from outside the judge, for
// people: Verify re-derives every decision from the stored scoring reports
// and the suite on disk at zero model tokens, and Log lists the generations.
//
// It reads the ledger only through internal/ledgerdb (read-only, holdout text
// withheld, every string made printable) and decides through the anchor's
// own pure functions (anchor.Count, anchor.Decide, anchor.Forgery): it
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
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
// run's score by id, the gate's evidence per split under the ledger's
// alpha, who scored the runs and who re-derived them, and the first
// discrepancy ("" when verified).
type Certificate struct {
	Gen         int                        `json:"gen"`
	Decision    string                     `json:"decision"`
	Reason      string                     `json:"reason"`
	HarnessHash string                     `json:"harness_hash"`
	SuiteHash   string                     `json:"suite_hash"`
	Alpha       float64                    `json:"alpha"`
	Judges      []string                   `json:"judges"`   // of its runs: the anchor build and Go toolchain
	Verifier    string                     `json:"verifier"` // the build that re-derived it
	Scores      map[string]float64         `json:"scores"`
	Evidence    map[string]anchor.Evidence `json:"evidence"`
	Discrepancy string                     `json:"discrepancy"`
}

// Verify re-derives the decision of generation gen, or of every decided
// generation when gen is negative. It walks the ledger in order, so that
// each generation's parent is the head it was decided against; re-hashes
// the snapshots, the stored diff (an evaluated candidate is its parent with
// its diff applied) and each task folder; checks that the runs a decision
// names are of the right harness, split and repeats and cover the suite as
// the anchor's evaluation does; re-scores each run through anchor.Count
// from the report kept in reports/<run>.json.gz; and decides again through
// anchor.Decide under the ledger's frozen alpha and looks. A pending or interrupted
// generation has no decision to verify. An error means the ledger could
// not be read; a decision that does not re-derive is a Discrepancy.
func (l Ledger) Verify(ctx context.Context, gen int) ([]Certificate, error) {
	meta, err := ledgerdb.Meta(ctx, l.db())
	if err != nil {
		return nil, err
	}
	v := verifier{Ledger: l, ctx: ctx, alpha: 0.05, repeats: 1, looks: 1, tasks: map[string]task{}}
	if s := meta["alpha"]; s != "" { // a ledger from before alpha was frozen ran at the default
		v.alpha, err = strconv.ParseFloat(s, 64)
	}
	if err != nil || !(v.alpha > 0 && v.alpha < 1) {
		return nil, fmt.Errorf("the ledger's alpha %q is not a number between 0 and 1", meta["alpha"])
	}
	if s := meta["repeats"]; s != "" {
		v.repeats, err = strconv.Atoi(s)
	}
	if err != nil || v.repeats < 1 {
		return nil, fmt.Errorf("the ledger's repeats %q is not a positive number", meta["repeats"])
	}
	if s := meta["looks"]; s != "" { // a ledger from before the second look has one
		v.looks, err = strconv.Atoi(s)
	}
	if err != nil || v.looks < 1 || v.looks > 2 {
		return nil, fmt.Errorf("the ledger's looks %q is not 1 or 2", meta["looks"])
	}
	gens, err := ledgerdb.Generations(ctx, l.db())
	if err != nil {
		return nil, err
	}
	certs := []Certificate{}
	heads := lineage(gens)
	for _, g := range gens {
		if gen >= 0 && g.Gen != gen || g.Decision == "pending" || g.Decision == "interrupted" {
			continue
		}
		c := Certificate{Gen: g.Gen, Decision: g.Decision, Reason: g.Reason, HarnessHash: g.Hash,
			Alpha: v.alpha, Verifier: build(), Scores: map[string]float64{}, Evidence: map[string]anchor.Evidence{}}
		c.Discrepancy = heads[g.Gen].problem
		if c.Discrepancy == "" {
			c.Discrepancy, err = v.rederive(g, heads[g.Gen].parent, &c)
		}
		if err != nil {
			return nil, err
		}
		certs = append(certs, c)
	}
	if len(certs) == 0 {
		return nil, fmt.Errorf("no decided generation %d in this ledger; pick one from ratchet log", gen)
	}
	return certs, nil
}

// standing is where a generation stands in the ledger's history: the head
// it was decided against, or what is wrong with its place.
type standing struct {
	parent  *ledgerdb.Gen
	problem string
}

// lineage walks the generations in order, as the anchor wrote them: the
// first is the baseline, and each later one was decided against the head of
// its time, which baseline, accept and rollback move (a rollback to an
// earlier head, with its harness). The head the ledger names must be where
// the walk ends.
func lineage(gens []ledgerdb.Gen) map[int]standing {
	out, byGen, wasHead := map[int]standing{}, map[int]ledgerdb.Gen{}, map[int]bool{}
	var head *ledgerdb.Gen
	for i, g := range gens {
		byGen[g.Gen] = g
		var s standing
		switch {
		case g.Decision == "baseline" && (i > 0 || g.Parent != nil):
			s.problem = fmt.Sprintf("generation %d is a baseline after generation %d", g.Gen, gens[0].Gen)
		case g.Decision == "baseline":
		case head == nil || g.Parent == nil || *g.Parent != head.Gen:
			s.problem = fmt.Sprintf("generation %d was not decided against the head of its time (generation %s)",
				g.Gen, headName(head))
		default:
			s.parent = head
		}
		var target int
		if g.Decision == "rollback" && s.problem == "" {
			_, err := fmt.Sscanf(g.Reason, "rollback to generation %d", &target)
			if err != nil || !wasHead[target] || byGen[target].Hash != g.Hash {
				s.problem = fmt.Sprintf("generation %d rolls back to %q, which was no head of this harness", g.Gen,
					g.Reason)
			}
		}
		if g.Decision == "baseline" || g.Decision == "accept" || g.Decision == "rollback" {
			head, wasHead[g.Gen] = &gens[i], true
		}
		out[g.Gen] = s
	}
	marked := -1
	for _, g := range gens {
		if g.Head {
			marked = g.Gen
		}
	}
	if head != nil && marked != head.Gen {
		s := out[head.Gen]
		s.problem = cmp.Or(s.problem, fmt.Sprintf("the ledger names generation %d its head, but its history "+
			"ends at generation %d", marked, head.Gen))
		out[head.Gen] = s
	}
	return out
}

func headName(g *ledgerdb.Gen) string {
	if g == nil {
		return "none"
	}
	return strconv.Itoa(g.Gen)
}

// verifier holds what one Verify reads once: the ledger's frozen settings
// and each task of the suite as read from disk.
type verifier struct {
	Ledger
	ctx     context.Context
	alpha   float64
	repeats int
	looks   int // the holdout gate's looks (anchor.Decide)
	tasks   map[string]task
}

// task is a task folder read from disk, or why it could not be.
type task struct {
	t      anchor.Task
	hash   string
	hidden map[string][]byte
	err    error
}

var (
	hashName = regexp.MustCompile(`^[0-9a-f]{64}$`)
	runName  = regexp.MustCompile(`^[a-z0-9]{1,64}$`)
)

// rederive re-hashes g's snapshots and diff, checks and re-scores its runs
// and decides again through anchor.Decide. It returns the first
// discrepancy, or "", and an error only when the ledger cannot be read.
func (v *verifier) rederive(g ledgerdb.Gen, parent *ledgerdb.Gen, c *Certificate) (string, error) {
	harness := map[string]string{"post": g.Hash}
	if parent != nil {
		harness["pre"] = parent.Hash
	}
	for _, h := range harness {
		if why := v.snapshot(h); h != "" && why != "" {
			return why, nil
		}
	}
	if g.TrainPost != nil && g.RunIDs == "" {
		return "the ledger kept no run ids for this generation: it was decided before verify existed", nil
	}
	f := strings.Fields(g.RunIDs)
	if len(f)%3 != 0 || strings.HasSuffix(g.RunIDs, "…") {
		return fmt.Sprintf("generation %d's record of its runs is cut or malformed", g.Gen), nil
	}
	ids := []string{}
	for i := 2; i < len(f); i += 3 {
		ids = append(ids, f[i])
	}
	rows, err := runsByID(v.ctx, v.db(), ids)
	if err != nil {
		return "", err
	}
	runs, suite, judges := map[string][]anchor.Run{}, map[string][]byte{}, map[string]bool{}
	for i := 0; i < len(f); i += 3 { // split, side, run id
		split, side, id := f[i], f[i+1], f[i+2]
		r, why := v.rescore(rows, id)
		switch {
		case why != "":
		case harness[side] == "" || (split != "train" && split != "holdout"):
			why = fmt.Sprintf("generation %d names run %s as %q %q, which it cannot have", g.Gen, id, split, side)
		case r.HarnessHash != harness[side]:
			why = fmt.Sprintf("run %s is of harness %.12s, not %.12s", r.ID, r.HarnessHash, harness[side])
		case r.Split != split:
			why = fmt.Sprintf("run %s is of split %s, not %s", r.ID, r.Split, split)
		}
		if why != "" {
			return why, nil
		}
		runs[split+" "+side] = append(runs[split+" "+side], r)
		c.Scores[r.ID], suite[r.Split+"/"+r.TaskID] = r.Score, []byte(r.TaskHash)
		judges[r.Judge] = true
	}
	c.SuiteHash, c.Judges = anchor.HashOf(suite), slices.Sorted(maps.Keys(judges))
	if why := v.diff(g, parent, runs); why != "" {
		return why, nil
	}
	if why := v.coverage(g, runs); why != "" {
		return why, nil
	}
	d, why := g, ""
	for _, split := range []string{"train", "holdout"} {
		pre, post := runs[split+" pre"], runs[split+" post"]
		e, reason, again := anchor.Decide(split, pre, post, v.alpha, v.repeats, v.looks)
		if again && !strings.HasPrefix(g.Reason, "stopped after ") {
			reason = "the second look it was owed is missing: " + reason
		}
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
			d.Decision, got, d.Reason), nil
	}
	return "", nil
}

// coverage checks that g's runs are those the anchor's evaluations make:
// every task the ledger's repeats times, with distinct repeat indices; the
// incumbent on every task of both splits once a candidate was evaluated,
// and the candidate on some of them (a screen stops early) or, to be
// accepted, on all; a new head (baseline, rollback) on all.
func (v *verifier) coverage(g ledgerdb.Gen, runs map[string][]anchor.Run) string {
	evaluated := len(runs) > 0 && g.Decision != "baseline" && g.Decision != "rollback"
	for _, split := range []string{"train", "holdout"} {
		dirs, _ := filepath.Glob(filepath.Join(v.Tasks, split, "*", "task.toml"))
		suite := map[string]bool{}
		for _, d := range dirs {
			suite[filepath.Base(filepath.Dir(d))] = true
		}
		pre, why := v.tally(g, split, runs[split+" pre"], suite)
		if why != "" {
			return why
		}
		post, why := v.tally(g, split, runs[split+" post"], suite)
		switch {
		case why != "":
			return why
		case evaluated && pre < len(suite):
			return fmt.Sprintf("generation %d was compared with its incumbent on %d of the %d %s tasks on disk",
				g.Gen, pre, len(suite), split)
		case g.Decision == "accept" && post < len(suite):
			return fmt.Sprintf("generation %d was accepted on %d of the %d %s tasks on disk",
				g.Gen, post, len(suite), split)
		case !evaluated && len(runs) > 0 && post < len(suite):
			return fmt.Sprintf("generation %d became the head measured on %d of the %d %s tasks on disk",
				g.Gen, post, len(suite), split)
		}
	}
	return ""
}

// tally counts the tasks of one side of a split that runs cover, each with
// the ledger's repeats, or says what is wrong with them.
func (v *verifier) tally(g ledgerdb.Gen, split string, runs []anchor.Run, suite map[string]bool) (int, string) {
	draws, most := map[string]map[int]bool{}, v.repeats
	if split == "holdout" && v.looks == 2 { // a second look runs repeats k to 3k-1
		most = 3 * v.repeats
	}
	for _, r := range runs {
		if !suite[r.TaskID] {
			return 0, fmt.Sprintf("generation %d counts task %s/%s, which the suite on disk does not have",
				g.Gen, split, r.TaskID)
		}
		if draws[r.TaskID] == nil {
			draws[r.TaskID] = map[int]bool{}
		}
		if draws[r.TaskID][r.Repeat] || r.Repeat < 0 || r.Repeat >= most {
			return 0, fmt.Sprintf("generation %d counts repeat %d of %s/%s twice, or one the ledger's %d repeats "+
				"do not have", g.Gen, r.Repeat, split, r.TaskID, most)
		}
		draws[r.TaskID][r.Repeat] = true
	}
	want := v.repeats // every task, or with a second look every holdout task, the same number of times
	for _, repeats := range draws {
		want = max(want, len(repeats))
	}
	for id, repeats := range draws {
		if len(repeats) != want || want != v.repeats && want != most {
			return 0, fmt.Sprintf("generation %d counts %d of the %d repeats of %s/%s", g.Gen, len(repeats),
				want, split, id)
		}
	}
	return len(draws), ""
}

// diff checks that the stored diff hashes to its name and, for a candidate
// that was evaluated, that its parent with the diff applied is its harness.
func (v *verifier) diff(g ledgerdb.Gen, parent *ledgerdb.Gen, runs map[string][]anchor.Run) string {
	if g.DiffHash == "" || g.Decision == "baseline" || g.Decision == "rollback" {
		return ""
	}
	if !hashName.MatchString(g.DiffHash) {
		return fmt.Sprintf("generation %d names diff %q, which is no hash", g.Gen, g.DiffHash)
	}
	diff, err := os.ReadFile(filepath.Join(v.Home, "diffs", g.DiffHash+".diff"))
	sum := sha256.Sum256(diff)
	if err != nil || hex.EncodeToString(sum[:]) != g.DiffHash {
		return fmt.Sprintf("diff %s is missing or no longer matches its hash", g.DiffHash)
	}
	if len(runs) == 0 || parent == nil {
		return "" // rejected before its harness was made and run
	}
	got, err := applied(filepath.Join(v.Home, "snapshots", parent.Hash), diff)
	if err != nil || got != g.Hash {
		return fmt.Sprintf("generation %d's harness %.12s is not its parent's with its diff applied (%.12s, %v)",
			g.Gen, g.Hash, got, err)
	}
	return ""
}

// applied is the hash of the snapshot in dir with diff applied by git, as
// the anchor applies a candidate's diff.
func applied(dir string, diff []byte) (string, error) {
	files, err := anchor.ReadTree(dir, true)
	if err != nil {
		return "", err
	}
	work, err := os.MkdirTemp("", "ratchet-verify-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	if err := anchor.WriteTree(work, files); err != nil {
		return "", err
	}
	cmd := exec.Command("git", "apply", "--whitespace=nowarn", "-")
	cmd.Dir, cmd.Stdin = work, bytes.NewReader(diff)
	cmd.Env = append(os.Environ(), "GIT_DIR=/nonexistent") // never a repository around the folder
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("git apply: %v: %s", err, bytes.TrimSpace(out))
	}
	files, err = anchor.ReadTree(work, true)
	if err != nil {
		return "", err
	}
	return anchor.HashOf(files), nil
}

// runsByID reads the runs named by ids. Only a forged run's error is read:
// a rejection names it.
func runsByID(ctx context.Context, db string, ids []string) (map[string]ledgerdb.Run, error) {
	list, _ := json.Marshal(ids)
	rows, err := ledgerdb.Scan[ledgerdb.Run](ctx, db, `SELECT id, harness_hash, task_hash, task_id, split, repeat,
		score, outcome, CASE WHEN outcome = 'forged' THEN error ELSE '' END AS error, judge
		FROM runs WHERE id IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return nil, err
	}
	runs := make(map[string]ledgerdb.Run, len(rows))
	for _, r := range rows {
		runs[r.ID] = r
	}
	return runs, nil
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

// snapshot checks that stored snapshot hash still hashes as its name, and
// returns what is wrong, or "".
func (v *verifier) snapshot(hash string) string {
	if !hashName.MatchString(hash) {
		return fmt.Sprintf("the ledger names harness %q, which is no hash", hash)
	}
	files, err := anchor.ReadTree(filepath.Join(v.Home, "snapshots", hash), true)
	if err != nil {
		return fmt.Sprintf("snapshot %s is missing or unreadable: %v", hash, err)
	}
	if anchor.HashOf(files) != hash {
		return fmt.Sprintf("snapshot %s no longer matches its hash", hash)
	}
	return ""
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
// the run recorded, or what is wrong with it. A harness that did not build
// was never scored: it scores 0.
func (v *verifier) rescore(rows map[string]ledgerdb.Run, id string) (anchor.Run, string) {
	row, ok := rows[id]
	switch {
	case !runName.MatchString(id):
		return anchor.Run{}, fmt.Sprintf("the ledger names run %q, which is no run id", id)
	case !ok:
		return anchor.Run{}, fmt.Sprintf("run %s is missing from the ledger", id)
	case row.Split != "train" && row.Split != "holdout" || !filepath.IsLocal(row.TaskID) ||
		strings.ContainsRune(row.TaskID, '/'):
		return anchor.Run{}, fmt.Sprintf("run %s names task %q of split %q, which no suite has", id, row.TaskID,
			row.Split)
	}
	r := anchor.Run{ID: row.ID, HarnessHash: row.HarnessHash, TaskHash: row.TaskHash, TaskID: row.TaskID,
		Split: row.Split, Repeat: row.Repeat, Outcome: anchor.Outcome(row.Outcome), Error: row.Error,
		Judge: row.Judge}
	if row.Score != nil {
		r.Score = *row.Score
	}
	t := v.task(r.Split, r.TaskID)
	if _, err := os.Stat(filepath.Join(v.Tasks, r.Split, r.TaskID)); errors.Is(err, fs.ErrNotExist) {
		return r, fmt.Sprintf("task %s/%s of run %s is missing from the suite %s", r.Split, r.TaskID, id, v.Tasks)
	}
	if t.err != nil || t.hash != r.TaskHash {
		return r, fmt.Sprintf("task %s/%s on disk no longer matches the hash its run %s recorded: "+
			"it changed since", r.Split, r.TaskID, id)
	}
	r.Group = t.t.Group
	s := anchor.Scored{Total: 1}
	b, err := os.ReadFile(filepath.Join(v.Home, "reports", id+".json.gz"))
	if err == nil || r.Outcome != anchor.OutcomeBuild {
		z, zerr := gzip.NewReader(bytes.NewReader(b))
		if err != nil || zerr != nil || json.NewDecoder(z).Decode(&s) != nil {
			return r, fmt.Sprintf("run %s (task %s) has no readable stored report to re-score (a run made "+
				"through ANCHOR_RUNNER before the runner brought reports back, or by a runner that does not)", id, r.TaskID)
		}
	}
	if rep := s.Report; rep != nil {
		s = anchor.Count(t.t, rep.Out, rep.Exit, rep.JUnit, t.hidden, rep.Mods, rep.Canaries, "")
	}
	got := float64(s.Passed) / float64(max(s.Total, 1))
	if got != r.Score || (s.Outcome == anchor.OutcomeForged) != (r.Outcome == anchor.OutcomeForged) {
		return r, fmt.Sprintf("run %s (task %s): the ledger says score %.3f (%s), its report re-derives %.3f (%s)",
			id, r.TaskID, r.Score, r.Outcome, got, cmp.Or(s.Outcome, anchor.OutcomeOK))
	}
	return r, ""
}

// build names the program that re-derives: the sha256 of its executable and
// its Go toolchain.
var build = sync.OnceValue(func() string {
	exe, _ := os.Executable()
	self, _ := os.ReadFile(exe)
	sum := sha256.Sum256(self)
	return hex.EncodeToString(sum[:8]) + " " + runtime.Version()
})
