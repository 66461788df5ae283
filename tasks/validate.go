// Package tasks validates a task suite in the format tasks/README.md
// describes, for any suite, not only the bundled one. It runs the tests in
// the anchor's own sandbox and scores them with the anchor's own rules.
//
// It imports the anchor and plan; tasks/exercism and tasks/mine, which write
// suites, import it and the anchor, nothing else of ours
// (docs/ARCHITECTURE.md, "Layout").
package tasks

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"ratchet/anchor"
	"ratchet/plan"
)

// Result is the verdict on one task.
type Result struct {
	Split, ID string
	Reference string // passed/total of reference + hidden
	Untouched string // passed/total of repo + hidden
	Problem   string // empty when the task is good
	Elapsed   time.Duration
}

// Validate checks every task under dir (<split>/<id>/task.toml), jobs at a
// time, prints a table to out and returns the results. A task is good when
// task.toml parses, the reference with hidden/ overlaid passes every test,
// the untouched repo with hidden/ overlaid fails at least one, and nothing in
// repo/ gives away hidden/ or reference/.
func Validate(ctx context.Context, dir string, jobs int, out io.Writer) ([]Result, error) {
	var dirs []string
	for _, split := range []string{"train", "holdout", "sealed"} {
		m, _ := filepath.Glob(filepath.Join(dir, split, "*"))
		dirs = append(dirs, m...)
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("no tasks under %s: a suite holds train/, holdout/ and sealed/ folders of tasks (see tasks/README.md)", dir)
	}
	tmp, err := os.MkdirTemp("", "ratchet-validate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	results := make([]Result, len(dirs))
	sem := make(chan struct{}, max(jobs, 1))
	var wg sync.WaitGroup
	for i, d := range dirs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = Check(ctx, d, filepath.Join(tmp, fmt.Sprint(i)))
		})
	}
	wg.Wait()
	// Two tasks with the same files share one task hash, so the anchor's run
	// cache would serve one's run for the other, across splits too.
	seen := map[string]string{}
	for i, d := range dirs {
		files, _ := anchor.ReadTree(d, true)
		h := anchor.HashOf(files) // the anchor's own task hash
		if other, ok := seen[h]; ok && results[i].Problem == "" {
			results[i].Problem = "same files as " + other + ": change its prompt or code (identical tasks share cached runs)"
		}
		seen[h] = results[i].Split + "/" + results[i].ID
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SPLIT\tTASK\tREFERENCE\tUNTOUCHED\tTIME\tVERDICT")
	for _, r := range results {
		verdict := "ok"
		if r.Problem != "" {
			verdict = "BAD: " + r.Problem
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.1fs\t%s\n", r.Split, r.ID, r.Reference, r.Untouched, r.Elapsed.Seconds(), verdict)
	}
	if err := tw.Flush(); err != nil {
		return results, err
	}
	_, err = io.WriteString(out, GroupReport(dirs))
	return results, err
}

// Check checks one task folder by the rules of Validate, but one task
// alone (so not whether another task has the same files), scoring in
// sandboxes under tmp.
func Check(ctx context.Context, dir, tmp string) (r Result) {
	start := time.Now()
	t, err := anchor.LoadTask(dir)
	r = Result{Split: t.Split, ID: t.ID}
	defer func() { r.Elapsed = time.Since(start) }()
	if err != nil {
		r.Problem = err.Error()
		return r
	}
	repo, err := anchor.ReadTree(filepath.Join(dir, "repo"), false)
	if err != nil {
		r.Problem = "repo/: " + err.Error()
		return r
	}
	hidden, _ := anchor.ReadTree(filepath.Join(dir, "hidden"), false)
	reference, _ := anchor.ReadTree(filepath.Join(dir, "reference"), false)
	if len(reference) == 0 {
		r.Problem = "no reference/ solution"
		return r
	}
	if p := giveaway(repo, hidden, reference); p != "" {
		r.Problem = p
		return r
	}
	if p := unsound(t, repo, hidden, reference); p != "" {
		r.Problem = p
		return r
	}
	if len(goTest.FindAllString(t.Test, -1)) > 1 && strings.Contains(t.Test, "&&") {
		r.Problem = "the test command chains go test with &&: the anchor's canary fails every go test, so what follows never runs; use ';', or one go test with every package"
		return r
	}
	// Scored exactly as the anchor scores an agent's tree: the reference
	// stands in for a perfect agent, the untouched repo for one that did
	// nothing.
	ref := anchor.ScoreTree(ctx, t, merge(repo, reference), filepath.Join(tmp, "ref"), 0)
	untouched := anchor.ScoreTree(ctx, t, repo, filepath.Join(tmp, "untouched"), 0)
	for _, s := range []anchor.Scored{ref, untouched} {
		if s.Outcome != "" {
			r.Problem = s.Error
			return r
		}
	}
	rp, rt, up, ut := ref.Passed, ref.Total, untouched.Passed, untouched.Total
	r.Reference, r.Untouched = fmt.Sprintf("%d/%d", rp, rt), fmt.Sprintf("%d/%d", up, ut)
	switch {
	case rp != rt && ref.Error != "": // why, when the scoring says (a build failure, no test reported)
		r.Problem = "the reference does not pass every test: " + ref.Error
	case rp != rt:
		r.Problem = "the reference does not pass every test"
	case up == ut:
		r.Problem = "the untouched repo already passes every test: nothing to fix"
	}
	return r
}

// unsound reports what keeps the anchor from scoring a task honestly: a
// prompt that names a hidden test, or go test without a go.mod. A public
// test without a copy in hidden/ is no hole: the anchor restores every test
// file of repo/ before scoring (the agent's edits to them are dropped), and
// only hidden tests count, so such a test counts neither way.
func unsound(t anchor.Task, repo, hidden, reference map[string][]byte) string {
	for _, name := range sortedKeys(hidden) {
		for _, m := range testName.FindAllSubmatch(hidden[name], -1) {
			if !bytes.Contains(repo[name], m[1]) && regexp.MustCompile(`\b`+string(m[1])+`\b`).MatchString(t.Prompt) {
				return fmt.Sprintf("the prompt names the hidden test %s (hidden/%s): describe the behaviour instead", m[1], name)
			}
		}
	}
	if goTest.MatchString(t.Test) {
		all := merge(repo, reference)
		for name := range all {
			if path.Base(name) == "go.mod" {
				return ""
			}
		}
		return "repo/ has no go.mod, so go test finds no module: add one (module NAME, go VERSION) to repo/"
	}
	return ""
}

// goTest finds go test in a test command as a command, not inside another
// word: cargo test is no go test.
var goTest = regexp.MustCompile(`(^|[\s;&|(])go test\b`)

func sortedKeys(m map[string][]byte) []string {
	return slices.Sorted(maps.Keys(m))
}

// SuiteProblems reports what keeps the anchor or its gate from using the
// suite in dir at all: no train or holdout tasks (anchor init needs both),
// or fewer holdout groups than the fewest changed units the gate's sign
// test can accept on at alpha (ratchet plan's minimum). The gate counts
// groups, not tasks: the variants of one kind move together and are one
// witness, so mining more tasks of the same groups never helps.
func SuiteProblems(dir string, alpha float64) []string {
	var out []string
	if len(splitGroups(dir, "train")) == 0 {
		out = append(out, "no train tasks: anchor init measures the harness on train/ and the evolver learns from it; add tasks to train/")
	}
	groups, need := splitGroups(dir, "holdout"), plan.MinChanged(alpha)
	tasks := 0
	for _, n := range groups {
		tasks += n
	}
	if tasks == 0 {
		out = append(out, fmt.Sprintf("no holdout tasks: the gate accepts only on holdout/; add tasks of at least %d groups "+
			"(ratchet plan --tasks DIR shows how many the gain you want needs)", need))
	} else if len(groups) < need {
		out = append(out, fmt.Sprintf("%d holdout tasks in %d group(s): the gate counts groups (a group's tasks move "+
			"together), and its sign test needs at least %d changed ones to reach p <= %g, so it can never accept; "+
			"add tasks of at least %d more groups (ratchet plan --tasks DIR shows how many the gain you want needs)",
			tasks, len(groups), need, alpha, need-len(groups)))
	}
	return out
}

// splitGroups counts a split's tasks by group (a task of no group is its
// own); a task that does not load counts as its own group.
func splitGroups(dir, split string) map[string]int {
	m, _ := filepath.Glob(filepath.Join(dir, split, "*", "task.toml"))
	groups := map[string]int{}
	for _, f := range m {
		g := filepath.Base(filepath.Dir(f))
		if t, err := anchor.LoadTask(filepath.Dir(f)); err == nil {
			g = t.Group
		}
		groups[g]++
	}
	return groups
}

// Detection says what the gate can see on the suite in dir before any run:
// the smallest holdout gain accepted with 80% power and the chance a gain
// of gain points is accepted, planned from a benchmark-like prior (ratchet
// plan --tasks). weak is true when that chance is below one half.
func Detection(ctx context.Context, dir string, alpha, gain float64) (line string, weak bool, err error) {
	c := plan.Config{Prior: true, Quick: true, Trials: 1000, Alpha: alpha, Gains: []float64{gain}}
	for split, groups := range map[string]*[]string{"train": &c.TrainGroups, "holdout": &c.HoldoutGroups} {
		counts := splitGroups(dir, split)
		for _, g := range slices.Sorted(maps.Keys(counts)) { // the same suite plans the same
			for range counts[g] {
				*groups = append(*groups, g)
			}
		}
	}
	c.Train, c.Holdout = len(c.TrainGroups), len(c.HoldoutGroups)
	if c.Train == 0 || c.Holdout == 0 {
		return "", false, nil // SuiteProblems says what is missing
	}
	r, err := plan.Plan(ctx, c)
	if err != nil {
		return "", false, err
	}
	power, mde := r.Reach()
	line = fmt.Sprintf("the gate on %d holdout groups (%d tasks), planned before any run from a benchmark-like prior: "+
		"a +%.0f-point gain accepted in %.0f%% of applies; smallest gain at 80%% power: %s (ratchet plan --tasks %s)",
		r.HoldoutGroups, r.HoldoutTasks, 100*gain, 100*power, mde, dir)
	return line, power < 0.5, nil
}

func merge(layers ...map[string][]byte) map[string][]byte {
	out := map[string][]byte{}
	for _, l := range layers {
		maps.Copy(out, l)
	}
	return out
}

var testName = regexp.MustCompile(`(?m)^func (Test\w+)\(`)

// giveaway reports what in repo/ reveals hidden/ or reference/: a copy of a
// hidden or reference file under another name, a hidden-only test's name,
// or folders named hidden or reference.
func giveaway(repo, hidden, reference map[string][]byte) string {
	byContent := map[string]string{}
	for name, b := range repo {
		byContent[string(b)] = name
		if first := strings.Split(name, "/")[0]; first == "hidden" || first == "reference" {
			return "repo/ contains a " + first + "/ folder"
		}
	}
	names := sort.StringSlice{}
	for name := range hidden {
		names = append(names, name)
	}
	names.Sort()
	for _, name := range names {
		b := hidden[name]
		if other, ok := byContent[string(b)]; ok && other != name {
			return fmt.Sprintf("repo/%s is a copy of hidden/%s", other, name)
		}
		if bytes.Equal(repo[name], b) {
			continue // a pristine copy of a public test
		}
		for _, m := range testName.FindAllSubmatch(b, -1) {
			for rn, rb := range repo {
				if bytes.Contains(rb, m[1]) && !bytes.Contains(repo[name], m[1]) {
					return fmt.Sprintf("repo/%s names the hidden test %s", rn, m[1])
				}
			}
		}
	}
	for name, b := range reference {
		if other, ok := byContent[string(b)]; ok {
			return fmt.Sprintf("repo/%s is a copy of reference/%s", other, name)
		}
	}
	return ""
}
