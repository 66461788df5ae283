// Package mine makes task suites from a repository: `ratchet tasks mine`
// turns the commits of its history that fix code together with tests into
// tasks, and `ratchet tasks mutate` plants bugs in its code that its tests
// catch. Every task is checked by the validator's rules (tasks.Check), in
// the anchor's sandbox, before it is written.
package mine

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"ratchet/tasks"
)

// Why a commit (or a mutant) makes no task: the summary counts each.
const (
	reasonRoot         = "the first commit (no parent to start from)"
	reasonNoCode       = "changes no Go or Python code or tests"
	reasonNoTests      = "changes code but no test file"
	reasonTestsOnly    = "changes tests but no code"
	reasonMessage      = "its message says nothing usable"
	reasonNamesTest    = "its message names a new test"
	reasonRefactor     = "its message describes a refactor, a rename or an upgrade, not a fix"
	reasonQuotesFix    = "its message quotes a line of the fix"
	reasonNoModule     = "Go tests without a go.mod at the top"
	reasonMissing      = "needs a package that is missing here (not vendored, not installed)"
	reasonNewerGo      = "needs a newer Go than this machine's"
	reasonFailOnCommit = "its tests fail on its own code"
	reasonSkips        = "its tests pass but some skip or do not report (those count as failures)"
	reasonPassOnParent = "its tests already pass on the parent"
	reasonSame         = "same files as another task"
	reasonInvalid      = "the validator refused the task"
	reasonSandbox      = "the sandbox failed (tried again next run)"
)

// Options says what to mine and where to write it.
type Options struct {
	Repo, Out string
	Rev       string // the commit whose first-parent chain is walked; default HEAD
	// Since and MaxCommits bound a run: only commits from Since on (zero:
	// all), and of those the newest MaxCommits (0: all). Commits left out
	// are not marked seen: a later run without the bounds mines them.
	Since      time.Time
	MaxCommits int
	Split      [3]int // train/holdout/sealed percentages
	Jobs       int    // tasks checked at once
	Progress   io.Writer
}

// candidate is a commit that may make a task: built, waiting to be checked.
type candidate struct {
	c      commit
	t      task
	reason string // why it made none, once checked
}

// Mine walks the first-parent history of o.Repo and writes one task per
// commit that changes code and tests together, whose tests fail on the
// parent and pass on the commit. Commits seen by an earlier run into o.Out
// are not looked at again. Nothing is written when the run fails, or when
// a new suite would have no task.
func Mine(ctx context.Context, o Options) (sum Summary, err error) {
	start := time.Now()
	sum = Summary{Written: map[string]int{}, Skipped: map[string]int{}}
	if err := openRepo(ctx, o.Repo); err != nil {
		return sum, err
	}
	defer func() { sum.Elapsed = time.Since(start) }()
	chain, err := firstParents(ctx, o.Repo, cmp.Or(o.Rev, "HEAD"))
	if err != nil {
		return sum, err
	}
	st, err := openSuite(o.Out, "mine", chain[0].hash)
	if err != nil {
		return sum, err
	}
	var fresh []commit
	for _, c := range chain {
		if !st.Seen[c.hash] && !c.when.Before(o.Since) {
			fresh = append(fresh, c)
		}
	}
	if o.MaxCommits > 0 && len(fresh) > o.MaxCommits {
		fresh = fresh[len(fresh)-o.MaxCommits:] // the newest: oldest first
	}
	sum.Seen, sum.New = len(chain), len(fresh)
	if len(fresh) == 0 {
		return sum, nil
	}
	staging, err := stage(o.Out)
	if err != nil {
		return sum, err
	}
	defer os.RemoveAll(staging)
	prog := &progress{w: o.Progress}
	var cands []*candidate
	for i, c := range fresh {
		prog.printf(false, "mine: read %d of %d commits, %d to check", i, len(fresh), len(cands))
		t, reason, err := prepare(ctx, o.Repo, c)
		if err != nil {
			return sum, fmt.Errorf("commit %s: %w", c.hash[:10], err)
		}
		if reason != "" {
			sum.Skipped[reason]++
			st.Seen[c.hash] = true
			continue
		}
		cands = append(cands, &candidate{c: c, t: t})
	}
	prog.printf(true, "mine: read %d commits, %d to check in the sandbox", len(fresh), len(cands))
	checkAll(ctx, cands, staging, o.Jobs, prog)
	if ctx.Err() != nil {
		return sum, ctx.Err()
	}
	known := hashes(o.Out)
	var kept []*candidate
	for _, cd := range cands {
		if cd.reason == "" {
			h := taskHash(filepath.Join(staging, "pending", cd.t.id))
			if _, dup := known[h]; dup {
				cd.reason = reasonSame
			}
			known[h] = cd.t.id
		}
		if cd.reason == reasonSandbox {
			sum.Skipped[cd.reason]++
			continue // not seen: the next run tries it again
		}
		st.Seen[cd.c.hash] = true
		if cd.reason != "" {
			sum.Skipped[cd.reason]++
			continue
		}
		kept = append(kept, cd)
	}
	if len(kept) == 0 && len(st.Tasks) == 0 {
		return sum, fmt.Errorf("no commit of %s makes a task, so nothing was written (%d seen: %s); try ratchet tasks mutate", o.Repo, sum.Seen, sum.Reasons())
	}
	for i, cd := range kept {
		split := splitOf(i, len(kept), o.Split)
		if err := place(staging, o.Out, split, cd.t.id); err != nil {
			return sum, err
		}
		st.Tasks[cd.c.hash] = split + "/" + cd.t.id
		sum.Written[split]++
	}
	return sum, st.save(o.Out)
}

// stage makes the folder where tasks wait to be checked, beside out so
// that they move into it by a rename.
func stage(out string) (string, error) {
	abs, err := filepath.Abs(out)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Dir(abs)); err != nil {
		return "", fmt.Errorf("--out %s: its parent folder does not exist; create it first", out)
	}
	return os.MkdirTemp(filepath.Dir(abs), ".ratchet-mine-")
}

// place moves a checked task from staging into out/split.
func place(staging, out, split, id string) error {
	if err := os.MkdirAll(filepath.Join(out, split), 0o755); err != nil {
		return err
	}
	return os.Rename(filepath.Join(staging, "pending", id), filepath.Join(out, split, id))
}

// checkAll writes every candidate's task under staging/pending and checks
// it, jobs at a time, setting its reason when it makes no task.
func checkAll(ctx context.Context, cands []*candidate, staging string, jobs int, prog *progress) {
	sem := make(chan struct{}, max(jobs, 1))
	var wg sync.WaitGroup
	var mu sync.Mutex
	done, good := 0, 0
	for i, cd := range cands {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			var problem string
			dir, tmp := filepath.Join(staging, "pending", cd.t.id), filepath.Join(staging, "tmp", fmt.Sprint(i))
			cd.reason, problem = checkTask(ctx, &cd.t, dir, tmp)
			if cd.reason == reasonSkips && len(cd.t.changedTests) < len(cd.t.hidden) {
				// A public test that always skips (behind a flag, on one
				// CPU) would count as failed: only the changed tests count.
				cd.t.hidden = cd.t.changedTests
				os.RemoveAll(dir) // written again by checkTask, whose write fails if this did
				cd.reason, problem = checkTask(ctx, &cd.t, dir, tmp+"-changed")
			}
			mu.Lock()
			defer mu.Unlock()
			if cd.reason == reasonInvalid || cd.reason == reasonSandbox || cd.reason == reasonMissing || cd.reason == reasonNewerGo ||
				cd.reason == reasonPartPass {
				prog.printf(true, "mine: commit %s: %s: %s", cd.c.hash[:10], cd.reason, problem)
			}
			done++
			if cd.reason == "" {
				good++
			}
			prog.printf(done == len(cands), "mine: checked %d of %d, %d make tasks", done, len(cands), good)
		})
	}
	wg.Wait()
}

// checkTask writes t to dir and checks it by the validator's rules; it
// returns why it is no task, or "", and the validator's problem. A good Go
// task that a tree changing nothing does not score 0 on has the tests
// that pass untouched cut from its hidden/ (cutPassing).
func checkTask(ctx context.Context, t *task, dir, tmp string) (string, string) {
	if err := t.write(dir); err != nil {
		return reasonInvalid, err.Error()
	}
	r := tasks.Check(ctx, dir, tmp)
	reason, detail := verdict(ctx, *t, r.Problem)
	if reason == "" && strings.Contains(t.test, "go test") && !strings.HasPrefix(r.Untouched, "0/") {
		return cutPassing(ctx, t, dir, tmp)
	}
	if reason == "" && strings.Contains(t.test, "-m pytest") && !strings.HasPrefix(r.Untouched, "0/") {
		return cutPassingPy(ctx, t, dir, tmp)
	}
	return reason, cmp.Or(detail, r.Problem)
}

// verdict turns the validator's problem with a task into why it is none,
// and for a missing package the line that names it.
func verdict(ctx context.Context, t task, p string) (string, string) {
	switch {
	case p == "":
		return "", ""
	case strings.HasPrefix(p, "scoring: ") || strings.HasPrefix(p, "prepare scoring") || strings.HasPrefix(p, "read the task"):
		return reasonSandbox, ""
	case strings.Contains(p, "already passes every test"):
		return reasonPassOnParent, ""
	case strings.Contains(p, "the reference does not pass"):
		files := maps.Clone(t.repo)
		maps.Copy(files, t.reference)
		maps.Copy(files, t.hidden)
		code, out, _, err := runBox(ctx, files, t.test, 5*time.Minute)
		switch {
		case err != nil:
			return reasonSandbox, ""
		case code == 0:
			return reasonSkips, ""
		}
		return diagnose(out)
	}
	return reasonInvalid, ""
}

// prepare builds the task of commit c, or says why it makes none.
func prepare(ctx context.Context, repo string, c commit) (task, string, error) {
	if c.parent == "" {
		return task{}, reasonRoot, nil
	}
	chs, err := changes(ctx, repo, c.parent, c.hash)
	if err != nil {
		return task{}, "", err
	}
	goTests, pyTests, code := 0, 0, 0
	for _, ch := range chs {
		switch {
		case ch.deleted || strings.HasPrefix(ch.path, "vendor/"):
		case isTestFile(ch.path) && strings.HasSuffix(ch.path, ".go"):
			goTests++
		case isTestFile(ch.path):
			pyTests++
		}
		if isCode(ch.path) {
			code++
		}
	}
	switch {
	case goTests+pyTests == 0 && code == 0:
		return task{}, reasonNoCode, nil
	case goTests+pyTests == 0:
		return task{}, reasonNoTests, nil
	case code == 0:
		return task{}, reasonTestsOnly, nil
	}
	prompt, ok := promptOf(c.message)
	if !ok {
		return task{}, reasonMessage, nil
	}
	if refactor.MatchString(prompt) {
		return task{}, reasonRefactor, nil
	}
	before, err := treeAt(ctx, repo, c.parent)
	if err != nil {
		return task{}, "", err
	}
	after, err := treeAt(ctx, repo, c.hash)
	if err != nil {
		return task{}, "", err
	}
	t := task{id: c.hash[:10], prompt: prompt, repo: before, hidden: map[string][]byte{}, reference: map[string][]byte{}}
	if s := slug(strings.SplitN(prompt, "\n", 2)[0]); s != "" {
		t.id += "-" + s
	}
	for _, ch := range chs {
		switch {
		case ch.deleted:
		case isTest(ch.path) && !strings.HasPrefix(ch.path, "vendor/"):
			t.hidden[ch.path] = after[ch.path]
		default:
			t.reference[ch.path] = after[ch.path]
		}
	}
	reason := ""
	if goTests > 0 {
		reason = goTask(ctx, &t, before, after, chs)
	} else {
		pyTask(&t, after, chs)
	}
	if reason == "" && namesNewTest(t) {
		reason = reasonNamesTest
	}
	if reason == "" && quotesFix(t) {
		reason = reasonQuotesFix
	}
	return t, reason, nil
}

// refactor matches a message whose first line says the commit renames,
// refactors, upgrades or restyles rather than fixes: no bug to report.
var refactor = regexp.MustCompile(`(?i)^\s*(rename|refactor|bump|upgrade|reformat|gofmt|lint|` +
	`use \S+( \S+)? instead of|replace \S+ with|update (go|the go version|dependencies|deps|go\.mod))\b`)

// quotesFix says whether t's prompt quotes a line the fix added to the
// code (one of at least 12 characters, spaces aside): a prompt that holds
// its answer is no task.
func quotesFix(t task) bool { return quotesChange(t, 12, false) }

// quotesChange says whether t's prompt quotes a line of the reference that
// the repo lacks, or with both, a line of the repo the reference lacks (a
// mutant's own line, shown by a traceback), of at least atLeast characters,
// spaces aside.
func quotesChange(t task, atLeast int, both bool) bool {
	prompt := squash(t.prompt) // once, not for every line
	lines := func(b []byte) map[string]bool {
		set := map[string]bool{}
		for l := range strings.SplitSeq(string(b), "\n") {
			set[squash(l)] = true
		}
		return set
	}
	for name, after := range t.reference {
		before, fixed := lines(t.repo[name]), lines(after)
		for l := range fixed {
			if !before[l] && quotes(prompt, l, atLeast) {
				return true
			}
		}
		for l := range before {
			if both && !fixed[l] && quotes(prompt, l, atLeast) {
				return true
			}
		}
	}
	return false
}

// quotes says whether squashed, a text already without its spaces, holds
// code, spaces aside, when code is at least atLeast characters without
// them (shorter code is found by chance).
func quotes(squashed, code string, atLeast int) bool {
	c := squash(code)
	return len(c) >= atLeast && strings.Contains(squashed, c)
}

// squash is s without its spaces.
func squash(s string) string { return strings.Join(strings.Fields(s), "") }

var moduleLine = regexp.MustCompile(`(?m)^module\s+"?([^\s"]+)`)

// goTask fills in a Go task: hidden/ holds every test file of the packages
// whose tests changed, as of the commit (a test file the commit deleted is
// cut to its package clause), until checkTask cuts from it the tests that
// pass on the parent (cutPassing); modules are vendored; the command tests
// those packages.
func goTask(ctx context.Context, t *task, before, after map[string][]byte, chs []change) string {
	if after["go.mod"] == nil {
		return reasonNoModule
	}
	dirs := map[string]bool{}
	for _, ch := range chs {
		if !ch.deleted && strings.HasSuffix(ch.path, "_test.go") && !strings.HasPrefix(ch.path, "vendor/") {
			dirs[path.Dir(ch.path)] = true
		}
	}
	for name, b := range before {
		if strings.HasSuffix(name, "_test.go") && dirs[path.Dir(name)] && after[name] == nil {
			if pkg := packageClause.Find(b); pkg != nil {
				t.hidden[name] = append(pkg, '\n')
			}
		}
	}
	t.changedTests = maps.Clone(t.hidden)
	for name, b := range after {
		if strings.HasSuffix(name, "_test.go") && dirs[path.Dir(name)] {
			t.hidden[name] = b
		}
	}
	vendored, err := vendorModules(ctx, t.repo)
	if err != nil {
		return vendorReason(err)
	}
	next := maps.Clone(after)
	vendoredNext, err := vendorModules(ctx, next)
	if err != nil {
		return vendorReason(err)
	}
	for name, b := range next {
		if strings.HasPrefix(name, "vendor/") && string(t.repo[name]) != string(b) {
			t.reference[name] = b
		}
	}
	var pkgs []string
	for _, d := range slices.Sorted(maps.Keys(dirs)) {
		if d != "." {
			d = "./" + d
		}
		pkgs = append(pkgs, d)
	}
	t.test = "go test " + strings.Join(pkgs, " ")
	if vendored || vendoredNext {
		t.test = "go test -mod=vendor " + strings.Join(pkgs, " ")
	}
	return "" // a mined fix is its own unit for the gate: no group (see task.group)
}

var packageClause = regexp.MustCompile(`(?m)^package \w+`)

func vendorReason(err error) string {
	if strings.Contains(err.Error(), "requires go >=") {
		return reasonNewerGo
	}
	return reasonMissing
}

// pyTask fills in a Python task: the command runs the test files the
// commit changed with the machine's pytest, scored by its exit status.
func pyTask(t *task, after map[string][]byte, chs []change) {
	var files []string
	for _, ch := range chs {
		if !ch.deleted && isTestFile(ch.path) && strings.HasSuffix(ch.path, ".py") {
			files = append(files, shellQuote(ch.path))
		}
	}
	slices.Sort(files)
	t.test = "python3 -m pytest -q -p no:cacheprovider " + strings.Join(files, " ")
	for name := range after {
		if strings.HasPrefix(name, "src/") && strings.HasSuffix(name, ".py") {
			t.test = "PYTHONPATH=src " + t.test
			break
		}
	}
}

func shellQuote(s string) string {
	if regexp.MustCompile(`^[A-Za-z0-9_./-]+$`).MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

var testDef = regexp.MustCompile(`(?m)^func (Test\w+)\(|^\s*(?:async\s+)?def (test\w*)\(`)

// namesNewTest reports whether the prompt names a test only hidden/ has.
func namesNewTest(t task) bool {
	for _, b := range t.hidden {
		for _, m := range testDef.FindAllSubmatch(b, -1) {
			name := string(m[1]) + string(m[2])
			if !regexp.MustCompile(`\b` + name + `\b`).MatchString(t.prompt) {
				continue
			}
			known := false
			for _, rb := range t.repo {
				if strings.Contains(string(rb), name) {
					known = true
					break
				}
			}
			if !known {
				return true
			}
		}
	}
	return false
}

var trailer = regexp.MustCompile(`^(?i:[a-z-]+-by|change-id|co-authored-by|fixes|closes|refs|see-also|bug|cc):\s|^\(cherry picked from commit`)
var mergeLine = regexp.MustCompile(`^Merge (pull request #\d+ from|branch|remote-tracking branch|tag|commit)\b|^Merged in \S+ \(pull request #\d+\)$`)
var words = regexp.MustCompile(`[\pL]{2,}`)

// issueRef matches a reference to an issue or pull request the agent
// cannot read: "(#163)", "fixes #196", "owner/repo#12", a URL to one.
var emptyParens = regexp.MustCompile(`\s+\(\s*\)`) // what an issue reference leaves, not a call: "Foo()"
var issueRef = regexp.MustCompile(`(?i)\s*\(\s*#\d+\s*\)|\b(fix(es|ed)?|close[sd]?|resolve[sd]?|see|refs?)\s+` +
	`([\w.-]+/[\w.-]+)?#\d+\b|https?://\S+/(issues|pull)/\d+\S*|([\w.-]+/[\w.-]+)?#\d+\b`)
var boring = regexp.MustCompile(`(?i)^(wip|fix(es|ed)?|updates?|minor|cleanup|tests?|typo|tweak|changes|more|stuff|misc|bump|refactor|\.+)\b[\s.!]*$`)

// promptOf turns a commit message into the request a user would have
// written: trailers and merge lines go, the rest is kept as it is. A
// message of fewer than three words, or one word of routine, says nothing
// usable.
func promptOf(msg string) (string, bool) {
	var keep []string
	for l := range strings.SplitSeq(strings.ReplaceAll(msg, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(l)
		if trailer.MatchString(t) || mergeLine.MatchString(t) || strings.Trim(t, "-") == "" && t != "" {
			continue
		}
		l = emptyParens.ReplaceAllString(issueRef.ReplaceAllString(l, ""), "")
		keep = append(keep, strings.TrimRight(l, " \t"))
	}
	text := strings.TrimSpace(strings.Join(keep, "\n"))
	text = regexp.MustCompile(`\n{3,}`).ReplaceAllString(text, "\n\n")
	if len(words.FindAllString(text, -1)) < 3 || boring.MatchString(text) {
		return "", false
	}
	return text + "\n", true
}
