package anchor

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Init snapshots the hand-written baseline, freezes the model and the
// frozen settings for the ledger's life, evaluates train and holdout and writes
// generation 0.
func (a *Anchor) Init(ctx context.Context, dir string) error {
	if _, err := os.Stat(filepath.Join(dir, "manifest.toml")); err != nil {
		return fmt.Errorf("%s is not a harness: it has no manifest.toml; pass the harness folder", dir)
	}
	if _, err := a.head(); err == nil {
		return errors.New("this ledger is already initialized; use anchor log, or a new --home for a new ledger")
	}
	hash, err := a.Snapshot(dir)
	if err != nil {
		return err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	_, err = a.db.Exec(`INSERT OR REPLACE INTO meta VALUES('model', ?), ('repeats', ?), ('alpha', ?), ('budget', ?), ('memory', ?), ('harness_dir', ?)`,
		a.Model(), strconv.Itoa(a.Repeats), strconv.FormatFloat(a.Alpha, 'g', -1, 64), strconv.FormatInt(a.Budget, 10), strconv.FormatInt(a.Memory, 10), abs)
	if err != nil {
		return fmt.Errorf("record the frozen settings: %w", err)
	}
	return a.newHead(ctx, &Gen{Gen: 0, Hash: hash, Decision: "baseline", Reason: "hand-written baseline"})
}

// newHead scores g's snapshot (from the cache where it can), makes it the
// head and refreshes the harness working copy.
func (a *Anchor) newHead(ctx context.Context, g *Gen) error {
	train, err := a.Evaluate(ctx, g.Hash, "train", false)
	if err != nil {
		return err
	}
	holdout, err := a.Evaluate(ctx, g.Hash, "holdout", false)
	if err != nil {
		return err
	}
	g.TrainPost, g.HoldoutPost, g.Tokens = &train.Mean, &holdout.Mean, train.Tokens+holdout.Tokens
	if err := a.putGen(g); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "generation %d (%s) %s: train %.3f, holdout %.3f\n", g.Gen, g.Decision, g.Hash[:12], train.Mean, holdout.Mean)
	return a.refreshWorkingCopy(g.Hash)
}

// Rollback makes generation gen's snapshot the head again. Its scores come
// from the run cache, so they are reproduced exactly.
func (a *Anchor) Rollback(ctx context.Context, gen int) error {
	head, err := a.head()
	if err != nil {
		return err
	}
	gs, err := a.gens(`WHERE gen = ? AND decision IN ('baseline', 'accept', 'rollback')`, gen)
	if err != nil {
		return err
	}
	if len(gs) == 0 {
		return fmt.Errorf("generation %d was never a head; pick a baseline, accept or rollback generation from anchor log", gen)
	}
	n, err := a.nextGen()
	if err != nil {
		return err
	}
	return a.newHead(ctx, &Gen{Gen: n, Parent: &head.Gen, Hash: gs[0].Hash, Decision: "rollback", Reason: fmt.Sprintf("rollback to generation %d", gen)})
}

// candidate is what the evolver submits.
type candidate struct {
	Diff       string   `json:"diff"`
	Component  string   `json:"component"`
	Hypothesis string   `json:"hypothesis"`
	TraceIDs   []string `json:"trace_ids"`
	Goal       string   `json:"goal"`
}

// readCandidate reads a candidate JSON and its diff, which must be a file
// inside the candidate's folder.
func readCandidate(path string) (candidate, []byte, error) {
	var c candidate
	b, err := os.ReadFile(path)
	if err != nil {
		return c, nil, fmt.Errorf("read candidate: %w; nothing was recorded", err)
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, nil, fmt.Errorf("read candidate %s: want JSON {diff, component, hypothesis, trace_ids, goal}: %v; nothing was recorded", path, err)
	}
	if c.Component == "" || c.Diff == "" {
		return c, nil, fmt.Errorf("read candidate %s: diff and component are required; nothing was recorded", path)
	}
	if !filepath.IsLocal(c.Diff) {
		return c, nil, fmt.Errorf("read candidate %s: diff %q must be a path inside the candidate's folder; nothing was recorded", path, c.Diff)
	}
	root, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return c, nil, fmt.Errorf("read candidate: %w; nothing was recorded", err)
	}
	defer root.Close()
	diff, err := root.ReadFile(c.Diff) // through os.Root: a link cannot lead out of the folder
	if err != nil {
		return c, nil, fmt.Errorf("read candidate diff: %w; nothing was recorded", err)
	}
	return c, diff, nil
}

// Apply runs the acceptance rule on a candidate JSON. Each step is written
// to the ledger before the next begins; a rejection is recorded with its
// reason and is not an error of the command. An infrastructure failure
// ends the generation as interrupted, never as a rejection.
func (a *Anchor) Apply(ctx context.Context, path string) error {
	c, diff, err := readCandidate(path)
	if err != nil {
		return err
	}
	head, err := a.head()
	if err != nil {
		return err
	}
	files, err := a.readSnapshot(head.Hash)
	if err != nil {
		return err
	}
	n, err := a.nextGen()
	if err != nil {
		return err
	}
	sum := sha256.Sum256(diff)
	ids, err := json.Marshal(c.TraceIDs)
	if err != nil {
		return err
	}
	g := Gen{Gen: n, Parent: &head.Gen, DiffHash: hex.EncodeToString(sum[:]), Component: c.Component,
		Hypothesis: c.Hypothesis, TraceIDs: string(ids), Goal: c.Goal, Decision: "pending"}
	if err := os.WriteFile(a.path("diffs", g.DiffHash+".diff"), diff, 0o644); err != nil {
		return fmt.Errorf("store the diff: %w", err)
	}
	steps := []struct {
		name  string
		check func() (string, error)
	}{
		{"step 1: diff checks", func() (string, error) { return checkDiff(diff, c.Component, manifest(files), files), nil }},
		{"step 3: task-string detector", func() (string, error) { return a.leak(string(diff), files), nil }},
		{"step 4: apply and snapshot", func() (string, error) { return a.applyDiff(&g, head.Hash, diff), nil }},
		{"step 5: evaluate on train", func() (string, error) { return a.compare(ctx, &g, head.Hash, "train") }},
		{"step 6: evaluate on holdout", func() (string, error) { return a.compare(ctx, &g, head.Hash, "holdout") }},
	}
	for _, s := range steps {
		g.Reason, a.phase = s.name, s.name
		if err := a.putGen(&g); err != nil {
			return err
		}
		reason, err := s.check()
		if err != nil {
			g.Decision, g.Reason = "interrupted", "interrupted during "+s.name+": "+err.Error()
			return errors.Join(err, a.putGen(&g))
		}
		if reason != "" {
			g.Decision, g.Reason = "reject", reason
			fmt.Fprintf(a.Out, "generation %d rejected: %s\n", g.Gen, Printable(reason, 2000))
			return a.putGen(&g)
		}
	}
	g.Decision = "accept"
	g.Reason = fmt.Sprintf("train %.3f -> %.3f, holdout %.3f -> %.3f: %d fixed, %d broken, p = %.3f ≤ %g",
		*g.TrainPre, *g.TrainPost, *g.HoldoutPre, *g.HoldoutPost, *g.HoldoutFixed, *g.HoldoutBroken, *g.HoldoutP, a.Alpha)
	if err := a.putGen(&g); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "generation %d accepted: %s\n", g.Gen, g.Reason)
	return a.refreshWorkingCopy(g.Hash)
}

// compare evaluates incumbent and candidate on a split and compares them
// task by task. Seed 004's rule holds on the means (a tie rejects), a run
// that forged its score rejects, and on holdout the gain must also beat
// noise: a one-sided exact sign test over the changed tasks at alpha.
func (a *Anchor) compare(ctx context.Context, g *Gen, incumbent, split string) (string, error) {
	pre, err := a.Evaluate(ctx, incumbent, split, false)
	if err != nil {
		return "", err
	}
	post, err := a.Evaluate(ctx, g.Hash, split, false)
	if err != nil {
		return "", err
	}
	g.Tokens += post.Tokens
	fixed, broken := 0, 0
	for id, s := range post.Tasks {
		switch d := s - pre.Tasks[id]; {
		case d > 1e-9:
			fixed++
		case d < -1e-9:
			broken++
		}
	}
	p := SignTest(fixed, broken)
	if split == "train" {
		g.TrainPre, g.TrainPost, g.TrainFixed, g.TrainBroken, g.TrainP = &pre.Mean, &post.Mean, &fixed, &broken, &p
	} else {
		g.HoldoutPre, g.HoldoutPost, g.HoldoutFixed, g.HoldoutBroken, g.HoldoutP = &pre.Mean, &post.Mean, &fixed, &broken, &p
	}
	for _, r := range post.Runs {
		if r.Outcome == "forged" && split == "train" {
			return fmt.Sprintf("forged score on train task %s (run %s): %s", r.TaskID, r.ID, r.Error), nil
		}
		if r.Outcome == "forged" { // holdout text never leaves the ledger's runs table
			return fmt.Sprintf("forged score on %s task %s (run %s)", split, r.TaskID, r.ID), nil
		}
	}
	change := fmt.Sprintf("%s %.3f -> %.3f: %d fixed, %d broken", split, pre.Mean, post.Mean, fixed, broken)
	if !(post.Mean > pre.Mean+1e-9) { // rounding never passes for a gain, nor does a NaN
		return change + " (did not improve; a tie rejects)", nil
	}
	if split == "holdout" && p > a.Alpha {
		return fmt.Sprintf("%s, p = %.3f > %g", change, p, a.Alpha), nil
	}
	return "", nil
}

// SignTest is the one-sided exact sign test over changed tasks: the chance
// of at least fixed improvements among fixed+broken changes if each change
// were a fair coin. With no change it is 1.
func SignTest(fixed, broken int) float64 {
	n := fixed + broken
	p := 0.0
	for k := fixed; k <= n; k++ {
		lc, _ := math.Lgamma(float64(n + 1))
		lk, _ := math.Lgamma(float64(k + 1))
		lnk, _ := math.Lgamma(float64(n - k + 1))
		p += math.Exp(lc - lk - lnk - float64(n)*math.Ln2)
	}
	return min(p, 1)
}

// checkDiff applies steps 1 and 2 of the rule, reading the diff with git's
// own parser: one editable file, changed in place (no rename, copy, mode
// change, symlink, binary or deletion), and not rewritten whole. It returns
// a rejection reason, or "" when the diff passes.
func checkDiff(diff []byte, component string, editable []string, files map[string][]byte) string {
	out, err := gitApply(diff, "", "--numstat", "--summary").CombinedOutput()
	if err != nil {
		return "the diff is empty or not a diff git can read: " + strings.TrimSpace(string(out))
	}
	touched, removed := []string{}, 0
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(l, "\t")
		switch {
		case strings.HasPrefix(l, " "):
			return "the diff changes more than file content: " + strings.TrimSpace(l)
		case len(f) != 3 || f[0] == "-":
			return "the diff changes a binary file: " + l
		case !filepath.IsLocal(f[2]):
			return fmt.Sprintf("the diff touches a path outside the harness: %q", f[2])
		}
		n, err := strconv.Atoi(f[1])
		if err != nil {
			return "the diff cannot be counted: " + l
		}
		touched, removed = append(touched, f[2]), removed+n
	}
	lines := strings.Count(string(files[component]), "\n")
	switch {
	case !slices.Contains(editable, component):
		return fmt.Sprintf("component %q is not listed in manifest.toml", component)
	case len(touched) != 1 || touched[0] != component:
		return fmt.Sprintf("the diff must touch exactly %s; it touches %s", component, strings.Join(touched, ", "))
	case lines >= 10 && removed*5 >= lines*4:
		return fmt.Sprintf("whole-file rewrite: the diff removes %d of %d lines", removed, lines)
	}
	return ""
}

// applyDiff applies the diff with git apply to a scratch copy of the
// snapshot and stores the result as g's harness. It returns a rejection
// reason: a diff that does not apply, or one that changes nothing.
func (a *Anchor) applyDiff(g *Gen, hash string, diff []byte) string {
	dir := a.path("tmp", "apply-"+rand.Text())
	defer os.RemoveAll(dir)
	files, err := a.readSnapshot(hash)
	if err == nil {
		err = WriteTree(dir, files)
	}
	if err != nil {
		return err.Error()
	}
	if out, err := gitApply(diff, dir, "--whitespace=nowarn").CombinedOutput(); err != nil {
		return "the diff does not apply: " + strings.TrimSpace(string(out))
	}
	g.Hash, err = a.Snapshot(dir)
	if err != nil {
		return err.Error()
	}
	if g.Hash == hash {
		return "no-op: the diff leaves the harness unchanged"
	}
	return ""
}

// gitApply runs git apply on diff in dir, never inside a repository that
// happens to enclose dir.
func gitApply(diff []byte, dir string, flags ...string) *exec.Cmd {
	args := append([]string{"apply"}, flags...)
	cmd := exec.Command("git", append(args, "-")...)
	cmd.Dir, cmd.Stdin, cmd.Env = cmp.Or(dir, "/"), bytes.NewReader(diff), append(os.Environ(), "GIT_DIR=/nonexistent")
	return cmd
}
