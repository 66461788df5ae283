package anchor

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
)

// lock takes the ledger's apply lock; only one init, apply or rollback at a
// time. Holding it, any generation still "pending" belongs to a dead apply.
func (a *Anchor) lock() (func(), error) {
	f, err := os.OpenFile(a.path("apply.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, errors.New("another anchor init, apply or rollback holds this ledger; wait for it to finish")
	}
	_, err = a.db.Exec(`UPDATE generations SET decision = 'interrupted', reason = 'interrupted during: ' || reason WHERE decision = 'pending'`)
	return func() { f.Close() }, err
}

// Init snapshots the hand-written baseline, evaluates it on train and
// holdout and writes generation 0.
func (a *Anchor) Init(ctx context.Context, dir string) error {
	unlock, err := a.lock()
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := a.head(); err == nil {
		return errors.New("this ledger is already initialized; use anchor log, or a new --home for a new ledger")
	}
	if err := a.frozenModel(); err != nil {
		return err
	}
	hash, err := a.Snapshot(dir)
	if err != nil {
		return err
	}
	abs, _ := filepath.Abs(dir)
	if err := errors.Join(a.setMeta("model", a.Model()), a.setMeta("harness_dir", abs)); err != nil {
		return err
	}
	g := Gen{Gen: 0, Hash: hash, Decision: "baseline", Reason: "hand-written baseline"}
	if err := a.scoreGen(ctx, &g); err != nil {
		return err
	}
	if err := a.moveHead(&g); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "generation 0 (baseline) %s: train %.3f, holdout %.3f\n", hash[:12], *g.TrainPost, *g.HoldoutPost)
	return nil
}

func (a *Anchor) scoreGen(ctx context.Context, g *Gen) error {
	for _, s := range []struct {
		split string
		dst   **float64
	}{{"train", &g.TrainPost}, {"holdout", &g.HoldoutPost}} {
		ev, err := a.Evaluate(ctx, g.Hash, s.split, false)
		if err != nil {
			return err
		}
		*s.dst = &ev.Mean
		g.Tokens += ev.Tokens
	}
	return nil
}

// Candidate is what the evolver submits.
type Candidate struct {
	Diff       string   `json:"diff"` // path to a unified diff
	Component  string   `json:"component"`
	Hypothesis string   `json:"hypothesis"`
	TraceIDs   []string `json:"trace_ids"`
}

// Apply runs the acceptance rule. Each step is written to the ledger before
// the next begins; a rejection is recorded with its reason and is not an
// error of the command.
func (a *Anchor) Apply(ctx context.Context, path string) error {
	unlock, err := a.lock()
	if err != nil {
		return err
	}
	defer unlock()
	var c Candidate
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil || c.Diff == "" || c.Component == "" {
		return fmt.Errorf("read candidate %s: want JSON {diff, component, hypothesis, trace_ids} (%v); nothing was recorded", path, err)
	}
	if !filepath.IsAbs(c.Diff) {
		c.Diff = filepath.Join(filepath.Dir(path), c.Diff)
	}
	diff, err := os.ReadFile(c.Diff)
	if err != nil {
		return fmt.Errorf("read diff: %w; nothing was recorded", err)
	}
	head, err := a.head()
	if err != nil {
		return err
	}
	if err := a.frozenModel(); err != nil {
		return err
	}
	sum := sha256.Sum256(diff)
	g := Gen{Gen: a.nextGen(), Parent: &head.Gen, DiffHash: hex.EncodeToString(sum[:]), Component: c.Component,
		Hypothesis: c.Hypothesis, TraceIDs: c.TraceIDs, Decision: "pending", Reason: "step 1: diff checks"}
	if err := errors.Join(writeAtomic(a.path("diffs", g.DiffHash+".diff"), diff), a.putGen(&g)); err != nil {
		return err
	}
	reject := func(reason string) error {
		g.Decision, g.Reason = "reject", reason
		fmt.Fprintf(a.Out, "generation %d rejected: %s\n", g.Gen, reason)
		return a.putGen(&g)
	}
	step := func(reason string) error { g.Reason = reason; return a.putGen(&g) }

	files, err := a.readSnapshot(head.Hash)
	if err != nil {
		return err
	}
	if reason := checkDiff(string(diff), c.Component, manifest(files), files); reason != "" {
		return reject(reason)
	}
	if err := step("step 3: task-string detector"); err != nil {
		return err
	}
	if leak := a.leak(string(diff), files); leak != "" {
		return reject("task-specific string in the diff: " + leak)
	}
	if err := step("step 4: apply and snapshot"); err != nil {
		return err
	}
	hash, reason, err := a.applyDiff(head.Hash, c.Diff)
	if err != nil {
		return err
	}
	if reason != "" {
		return reject(reason)
	}
	g.Hash = hash
	if hash == head.Hash {
		return reject("no-op: the diff leaves the harness unchanged")
	}
	for _, s := range []struct {
		split     string
		pre, post **float64
	}{{"train", &g.TrainPre, &g.TrainPost}, {"holdout", &g.HoldoutPre, &g.HoldoutPost}} {
		if err := step("step " + map[string]string{"train": "5", "holdout": "6"}[s.split] + ": evaluate on " + s.split); err != nil {
			return err
		}
		for _, h := range []struct {
			hash string
			dst  **float64
		}{{head.Hash, s.pre}, {hash, s.post}} {
			ev, err := a.Evaluate(ctx, h.hash, s.split, false)
			if err != nil {
				return err // the row stays pending; the next apply marks it interrupted
			}
			*h.dst = &ev.Mean
			if h.hash == hash {
				g.Tokens += ev.Tokens
			}
		}
		if err := step(g.Reason + " done"); err != nil {
			return err
		}
		if **s.post <= **s.pre {
			return reject(fmt.Sprintf("%s did not improve: %.3f -> %.3f (a tie rejects)", s.split, **s.pre, **s.post))
		}
	}
	g.Decision, g.Reason = "accept", fmt.Sprintf("train %.3f -> %.3f, holdout %.3f -> %.3f", *g.TrainPre, *g.TrainPost, *g.HoldoutPre, *g.HoldoutPost)
	if err := a.moveHead(&g); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "generation %d accepted: %s\n", g.Gen, g.Reason)
	return a.refreshHarnessDir(g.Hash)
}

func (a *Anchor) refreshHarnessDir(hash string) error {
	if dir := a.meta("harness_dir"); dir != "" {
		if err := a.refreshWorkingCopy(hash, dir); err != nil {
			return fmt.Errorf("%w; the ledger is right, run anchor rollback on the head generation to retry", err)
		}
	}
	return nil
}

var gitHeader = regexp.MustCompile(`^diff --git a/(\S+) b/(\S+)$`)

// checkDiff applies steps 1 and 2 of the rule to the diff's text and returns
// a rejection reason, or "" when the diff passes.
func checkDiff(diff, component string, editable []string, files map[string][]byte) string {
	if strings.TrimSpace(diff) == "" {
		return "empty diff"
	}
	touched := map[string]bool{}
	removed := 0
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "rename ") || strings.HasPrefix(l, "copy "):
			return "the diff renames or copies a file"
		case strings.HasPrefix(l, "new file mode 120000") || strings.HasPrefix(l, "new mode 120000"):
			return "the diff adds a symlink"
		case strings.HasPrefix(l, "GIT binary patch") || strings.HasPrefix(l, "Binary files"):
			return "the diff changes a binary file"
		case strings.HasPrefix(l, "deleted file"):
			return "the diff deletes a file"
		case strings.HasPrefix(l, "+++ ") || strings.HasPrefix(l, "--- "):
			p := strings.Fields(l[4:])
			if len(p) == 0 {
				return "the diff has an empty file header"
			}
			name := p[0]
			if name == "/dev/null" {
				if l[0] == '+' {
					return "the diff deletes a file"
				}
				continue
			}
			name = strings.TrimPrefix(strings.TrimPrefix(name, "a/"), "b/")
			if filepath.IsAbs(name) || slices.Contains(strings.Split(name, "/"), "..") {
				return fmt.Sprintf("the diff touches a path outside the harness: %q", name)
			}
			touched[name] = true
		case strings.HasPrefix(l, "diff --git "):
			if m := gitHeader.FindStringSubmatch(l); m == nil || m[1] != m[2] {
				return "the diff renames a file or has a malformed header"
			}
		case strings.HasPrefix(l, "-"):
			removed++
		}
	}
	if len(touched) == 0 {
		return "the diff touches no file"
	}
	if !slices.Contains(editable, component) {
		return fmt.Sprintf("component %q is not listed in manifest.toml", component)
	}
	if len(touched) != 1 || !touched[component] {
		names := make([]string, 0, len(touched))
		for n := range touched {
			names = append(names, n)
		}
		slices.Sort(names)
		return fmt.Sprintf("the diff must touch exactly %s; it touches %s", component, strings.Join(names, ", "))
	}
	if n := strings.Count(string(files[component]), "\n"); n >= 10 && removed*5 >= n*4 {
		return fmt.Sprintf("whole-file rewrite: the diff removes %d of %d lines", removed, n)
	}
	return ""
}

var quotedString = regexp.MustCompile(`"((?:[^"\\\n]|\\.){8,})"|` + "`([^`\n]{8,})`")
var moduleLine = regexp.MustCompile(`(?m)^module\s+(\S+)`)

// leak reports the first string of a train task found in an added line:
// task ids, module names, and quoted strings of 8 or more characters from
// prompts and public tests. A string the incumbent harness already holds
// is vocabulary, not a leak.
func (a *Anchor) leak(diff string, incumbent map[string][]byte) string {
	var vocab strings.Builder
	for _, b := range incumbent {
		vocab.Write(b)
	}
	var added strings.Builder
	for _, l := range strings.Split(diff, "\n") {
		if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") {
			added.WriteString(l[1:] + "\n")
		}
	}
	var needles []string // task ids and module names match as whole tokens
	var quotes []string  // quoted strings match anywhere
	tasks, _ := filepath.Glob(filepath.Join(a.Tasks, "train", "*", "task.toml"))
	for _, tt := range tasks {
		t, err := LoadTask(filepath.Dir(tt))
		if err != nil {
			continue
		}
		needles = append(needles, t.ID)
		texts := []string{t.Prompt}
		files, _ := walkFiles(filepath.Join(t.Dir, "repo"))
		for _, f := range files {
			b, _ := os.ReadFile(filepath.Join(t.Dir, "repo", f))
			if filepath.Base(f) == "go.mod" {
				for _, m := range moduleLine.FindAllStringSubmatch(string(b), -1) {
					needles = append(needles, m[1])
				}
			} else if strings.Contains(filepath.Base(f), "test") {
				texts = append(texts, string(b))
			}
		}
		for _, text := range texts {
			for _, m := range quotedString.FindAllStringSubmatch(text, -1) {
				quotes = append(quotes, m[1]+m[2])
			}
		}
	}
	for _, n := range append(needles, quotes...) {
		pattern := regexp.QuoteMeta(n)
		if !slices.Contains(quotes, n) {
			pattern = `(^|[^\w./-])` + pattern + `($|[^\w./-])`
		}
		re := regexp.MustCompile(pattern)
		if re.MatchString(added.String()) && !re.MatchString(vocab.String()) {
			return fmt.Sprintf("%q", n)
		}
	}
	return ""
}

// applyDiff applies the diff with git apply to a scratch copy of the
// snapshot and stores the result. A diff git refuses is a rejection.
func (a *Anchor) applyDiff(hash, diffPath string) (newHash, reason string, err error) {
	dir, err := os.MkdirTemp(a.path("tmp"), "apply-")
	if err != nil {
		return "", "", err
	}
	defer os.RemoveAll(dir)
	if err := a.extract(hash, dir); err != nil {
		return "", "", err
	}
	abs, _ := filepath.Abs(diffPath)
	cmd := exec.Command("git", "apply", "--whitespace=nowarn", abs)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			return "", "", fmt.Errorf("run git apply: %w; is git installed?", err)
		}
		return "", "the diff does not apply: " + lastLine(out), nil
	}
	h, err := a.Snapshot(dir)
	return h, "", err
}

// Rollback makes generation gen's snapshot the head again and re-extracts it
// into the harness working copy. Its scores come from the run cache.
func (a *Anchor) Rollback(ctx context.Context, gen int) error {
	unlock, err := a.lock()
	if err != nil {
		return err
	}
	defer unlock()
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
	g := Gen{Gen: a.nextGen(), Parent: &head.Gen, Hash: gs[0].Hash, Decision: "rollback", Reason: fmt.Sprintf("rollback to generation %d", gen)}
	if err := a.scoreGen(ctx, &g); err != nil {
		return err
	}
	if err := a.moveHead(&g); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "generation %d: head is generation %d's snapshot %s again\n", g.Gen, gen, g.Hash[:12])
	return a.refreshHarnessDir(g.Hash)
}
