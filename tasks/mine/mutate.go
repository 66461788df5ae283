package mine

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"ratchet/anchor"
)

// Why a mutant makes no task.
const (
	reasonSurvives    = "no test fails on it (the tests miss it)"
	reasonNoBuild     = "it does not build, or vet or the test run rejects it"
	reasonHangs       = "its tests hang"
	reasonNamesMutant = "its failing output quotes the code it changed"
	mutateCheckTime   = 2 * time.Minute // the most a mutant's test run may take
)

// hangAfter is how long a mutant's test run may take before it counts as
// hanging: three times the project's own run on its original code (which
// built and tested every package), at least 5 s and at most
// mutateCheckTime, so a mutant that loops costs seconds where the tests
// are quick.
func hangAfter(original time.Duration) time.Duration {
	return min(max(3*original, 5*time.Second), mutateCheckTime).Round(time.Second)
}

// MutateOptions says what to mutate and where to write the tasks.
type MutateOptions struct {
	Repo, Out string
	Rev       string // the commit whose code is mutated; "" is HEAD in a git repository, else the folder
	N         int    // tasks wanted
	Seed      uint64 // the order mutants are tried in
	Split     [3]int
	Jobs      int
	// Budget, above zero, stops trying mutants once it has passed and writes
	// the tasks kept so far (a batch under way finishes first).
	Budget   time.Duration
	Progress io.Writer
}

// site is one typed mutation: the bytes [start, end) of file replaced by
// repl, inside function fn; with more sites of the same function applied
// with it, a combined bug.
type site struct {
	File       string `json:"-"`
	Kind       string `json:"kind"`
	Fn         string `json:"func"`
	Line       int    `json:"line"`
	Start, End int
	Repl       string `json:"repl"`
	With       []site `json:"-"`
}

// edits are the site and those applied with it.
func (s site) edits() []site { return append([]site{s}, s.With...) }

// apply returns src with the site's edits made, the last in the file first
// so that each edit's offsets still hold.
func (s site) apply(src []byte) []byte {
	edits := s.edits()
	slices.SortFunc(edits, func(a, b site) int { return b.Start - a.Start })
	out := src
	for _, e := range edits {
		out = slices.Concat(out[:e.Start], []byte(e.Repl), out[e.End:])
	}
	return out
}

// mutant is a site being tried.
type mutant struct {
	s      site
	t      task
	reason string
}

//go:embed pymut.py
var pymut []byte

// Mutate writes up to o.N tasks made by changing one function of o.Repo's
// code at a time (a flipped comparison, an off-by-one bound, swapped
// operands, a wrong constant, a dropped statement; in Go also a swapped
// operator, a negated condition, swapped arguments, a removed early
// return; now and then two or three of them in one function), each kept only when
// some test of the project fails on it; every test must pass on the
// original. The same seed tries the same mutants in the same order.
func Mutate(ctx context.Context, o MutateOptions) (sum Summary, err error) {
	start := time.Now()
	sum = Summary{Written: map[string]int{}, Skipped: map[string]int{}}
	defer func() { sum.Elapsed = time.Since(start) }()
	if o.N < 1 {
		return sum, fmt.Errorf("-n %d: give the number of tasks wanted, 1 or more", o.N)
	}
	if entries, err := os.ReadDir(o.Out); err == nil && len(entries) > 0 {
		return sum, fmt.Errorf("--out %s is not empty: tasks mutate writes a new suite; give a new or empty folder", o.Out)
	}
	files, err := readProject(ctx, o.Repo, o.Rev)
	if err != nil {
		return sum, err
	}
	goProject := files["go.mod"] != nil
	goTest := "go test"
	if goProject {
		vendored, err := vendorModules(ctx, files)
		if err != nil {
			return sum, fmt.Errorf("%s: %w; its modules must be vendored for the offline sandbox", o.Repo, err)
		}
		if vendored {
			goTest = "go test -mod=vendor"
		}
	}
	hasTests := goProject
	for name := range files {
		hasTests = hasTests || isTestFile(name) && strings.HasSuffix(name, ".py")
	}
	if !hasTests {
		return sum, fmt.Errorf("%s has no go.mod and no Python tests (test_*.py): tasks mutate needs a Go module or a Python project with pytest tests", o.Repo)
	}
	prog := &progress{w: o.Progress}
	prog.printf(true, "mutate: running the tests of %s on its own code", o.Repo)
	var sites []site
	var orig original // the Go tests that skip, or take long, on the original
	// The first run on a new machine builds the warm cache: not the tests' time.
	anchor.WarmCache() // an error comes again from the first run
	began := time.Now()
	if goProject {
		sites, orig, err = goProjectSites(ctx, files, goTest)
	} else {
		var aside []string
		files, aside, err = setAsideFailingPy(ctx, files)
		if err == nil && len(aside) > 0 {
			prog.printf(true, "mutate: set aside, failing on the project's own code (renamed fails_on_original_…): %s",
				strings.Join(aside, ", "))
		}
		if err == nil {
			sites, err = pyProjectSites(ctx, files)
		}
	}
	if err != nil {
		return sum, err
	}
	hang := hangAfter(time.Since(began))
	var tc *typeChecker
	if goProject {
		tc = newTypeChecker(files)
	}
	prog.printf(true, "mutate: a mutant whose tests run longer than %s hangs", hang)
	if len(sites) == 0 {
		return sum, fmt.Errorf("%s has no function to mutate in code whose tests pass (Go with a go.mod, or Python with pytest tests)", o.Repo)
	}
	slices.SortFunc(sites, func(a, b site) int {
		return cmp.Or(strings.Compare(a.File, b.File), a.Start-b.Start, strings.Compare(a.Kind, b.Kind), a.End-b.End)
	})
	r := rand.New(rand.NewPCG(o.Seed, 0x5eed))
	r.Shuffle(len(sites), func(i, j int) { sites[i], sites[j] = sites[j], sites[i] })
	sites = spread(combine(sites))
	sites = sites[:min(len(sites), 10*o.N)] // a project whose tests miss most mutants ends early
	staging, err := stage(o.Out)
	if err != nil {
		return sum, err
	}
	defer os.RemoveAll(staging)
	known := map[string]string{}
	var kept []*mutant
	jobs := max(o.Jobs, 1)
	// Up to jobs mutants run at once, and their results are taken in the
	// sites' order, so the same seed gives the same tasks however long each
	// run takes. A function whose tests missed two of its mutants, and
	// caught none, is passed over from then on: its next mutant would most
	// likely be missed too, and the time goes to functions that make tasks.
	type running struct {
		m    *mutant
		done chan struct{}
	}
	tries, stop := context.WithCancel(ctx)
	defer stop()
	var window []running
	settle := func() { // no run is left behind: not one cut short, not one past the target
		stop()
		for _, w := range window {
			<-w.done
		}
		window = nil
	}
	defer settle()
	missed, caught, passedOver, next := map[string]int{}, map[string]bool{}, 0, 0
	overBudget := func() bool { return o.Budget > 0 && time.Since(start) > o.Budget }
	var deadline <-chan time.Time // never, without a budget
	if o.Budget > 0 {
		timer := time.NewTimer(time.Until(start.Add(o.Budget)))
		defer timer.Stop()
		deadline = timer.C
	}
	for len(kept) < o.N {
		for len(window) < jobs && next < len(sites) && !overBudget() {
			s := sites[next]
			if fn := groupOf(s); missed[fn] >= 2 && !caught[fn] {
				passedOver++
				next++
				continue
			}
			w := running{&mutant{s: s}, make(chan struct{})}
			n := next // each its own scratch folder
			go func() {
				defer close(w.done)
				tryMutant(tries, w.m, files, orig, goTest, staging, n, hang, tc)
			}()
			window = append(window, w)
			next++
		}
		if overBudget() { // the runs under way are stopped (settle): the budget bounds the whole run
			prog.printf(true, "mutate: the time budget of %s is spent: writing the %d tasks kept", o.Budget, len(kept))
			break
		}
		if len(window) == 0 {
			break
		}
		select {
		case <-window[0].done:
		case <-deadline:
			continue
		}
		m := window[0].m
		window = window[1:]
		if ctx.Err() != nil {
			return sum, ctx.Err()
		}
		switch fn := groupOf(m.s); m.reason {
		case reasonSurvives:
			missed[fn]++
		case "":
			caught[fn] = true
		}
		if m.reason == "" {
			h := taskHash(filepath.Join(staging, "pending", m.t.id))
			if _, dup := known[h]; dup {
				m.reason = reasonSame
			}
			known[h] = m.t.id
		}
		sum.Seen++
		if m.reason != "" {
			sum.Skipped[m.reason]++
		} else {
			kept = append(kept, m)
		}
		prog.printf(false, "mutate: tried %d mutants, %d make tasks", sum.Seen, len(kept))
	}
	settle()
	if passedOver > 0 {
		prog.printf(true, "mutate: passed over %d mutants of functions whose tests missed two of theirs", passedOver)
	}
	sum.New = sum.Seen
	if len(kept) == 0 {
		return sum, fmt.Errorf("no mutant of %s makes a task, so nothing was written (%d tried: %s); its tests may be too weak", o.Repo, sum.Seen, sum.Reasons())
	}
	st := state{Kind: "mutate", Root: fmt.Sprintf("seed %d", o.Seed), Seen: map[string]bool{}, Tasks: map[string]string{}}
	unit := map[string]int{} // each function's mutants go to one split together
	for _, m := range kept {
		if _, ok := unit[m.t.group]; !ok {
			unit[m.t.group] = len(unit)
		}
	}
	for _, m := range kept {
		split := splitOf(unit[m.t.group], len(unit), o.Split)
		if err := place(staging, o.Out, split, m.t.id); err != nil {
			return sum, err
		}
		st.Tasks[fmt.Sprintf("%s:%d:%s", m.s.File, m.s.Line, m.s.Kind)] = split + "/" + m.t.id
		sum.Written[split]++
	}
	return sum, st.save(o.Out)
}

// readProject reads the project's files: the committed tree at HEAD of a
// git repository, else the folder as the anchor reads a task.
func readProject(ctx context.Context, dir, rev string) (map[string][]byte, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s is not a folder: give the folder of a Go or Python project", dir)
	}
	if rev != "" {
		if _, err := git(ctx, dir, "rev-parse", "--verify", rev+"^{commit}"); err != nil {
			return nil, fmt.Errorf("--rev %s: %w; give a commit of %s's repository", rev, err, dir)
		}
		return treeAt(ctx, dir, rev)
	}
	if _, err := git(ctx, dir, "rev-parse", "--verify", "HEAD"); err == nil {
		if top, err := git(ctx, dir, "rev-parse", "--show-prefix"); err == nil && strings.TrimSpace(string(top)) == "" {
			return treeAt(ctx, dir, "HEAD")
		}
	}
	return anchor.ReadTree(dir, true)
}

// tryMutant applies m's site, runs the tests on the mutant and, when a
// test fails, builds the task and checks it by the validator's rules.
func tryMutant(ctx context.Context, m *mutant, files map[string][]byte, orig original, goTest, staging string, n int,
	hang time.Duration, tc *typeChecker) {
	s := m.s
	src := files[s.File]
	mutated := s.apply(src)
	tree := maps.Clone(files)
	tree[s.File] = mutated
	// a function's mutants move together: one unit
	t := task{repo: tree, hidden: map[string][]byte{}, reference: map[string][]byte{s.File: src}, group: groupOf(s)}
	t.id = fmt.Sprintf("%s-%s-%d", slug(strings.TrimSuffix(s.File, path.Ext(s.File))), s.Kind, s.Line)
	if strings.HasSuffix(s.File, ".go") {
		dir := path.Dir(s.File)
		for name, b := range files {
			if strings.HasSuffix(name, "_test.go") && path.Dir(name) == dir && !skips(dir, b, orig.skipped) {
				t.hidden[name] = b // a file with a test that skips anyway would count it failed
			}
		}
		pkg := "./" + dir
		if dir == "." {
			pkg = "."
		}
		t.test = goTest + " " + pkg
		if tc != nil && tc.fails(tree, dir, s.File) {
			m.reason = reasonNoBuild // told by go/types on the host, without a sandbox
			return
		}
		// go test's own timeout stops the test binary (the time to build it
		// aside) and names the test that hung; the sandbox's is the backstop.
		// The tests slow on the original run only when the others miss the
		// mutant: most mutants are caught by a fast test, and a slow one
		// that passes counts for nothing (uuid: 1.9 s of a 2 s run).
		slow := orig.slowIn(dir)
		run := fmt.Sprintf("%s -json -timeout %s", goTest, hang)
		code, out, timedOut, err := runBox(ctx, tree, run+skipFlag(slow)+" "+pkg, hang+mutateCheckTime)
		if err == nil && !timedOut && code == 0 && len(slow) > 0 {
			run += fmt.Sprintf(" -run '^(%s)$'", strings.Join(slow, "|"))
			code, out, timedOut, err = runBox(ctx, tree, run+" "+pkg, hang+mutateCheckTime)
		}
		m.reason = goVerdict(code, out, timedOut, err, &t)
		// The run just made is the parent's (the mutant's): the tests that
		// passed on it are cut now, so the task is checked once, not found
		// scoring above 0 and cut and checked again (cutPassing stays the
		// fallback for a test that passed here and fails when scored).
		if m.reason == "" {
			// The task's command, the prompt keeping the plain one: a test
			// binary that hangs stops at twice the mutant's limit (at least
			// 30 s), not go test's default 10 minutes, in the check and in
			// every scoring.
			command := fmt.Sprintf("%s -timeout %s", goTest, max(2*hang, 30*time.Second))
			// Only the tests that failed on the mutant count: one that
			// passed says nothing of the bug, and one the run never reached
			// (an earlier test's panic ended it) would count as failed on the
			// untouched tree without being seen to, and on the reference it
			// runs in a state no run of the project's own ever made (uuid's
			// TestVersion6 after a TestSetRand that left the random source
			// exhausted).
			failed := failedTests(out)
			if hidden, err := cutTests(t, func(key string) bool { return !failed[key] }); err == nil {
				t.hidden = hidden
				// Skipped: the slow tests that did not fail here, not one of
				// them hidden.
				var skip []string
				for _, name := range slices.Concat(slow, slowPassing(out)) {
					if !failed[path.Join(modulePath(files["go.mod"]), dir)+" "+name] {
						skip = append(skip, name)
					}
				}
				slices.Sort(skip)
				command += skipFlag(slices.Compact(skip))
			}
			t.test = command + " " + pkg
		}
	} else {
		for name, b := range files {
			if isTest(name) {
				t.hidden[name] = b
			}
		}
		t.test = pytestCommand(files)
		code, out, timedOut, err := runBox(ctx, tree, t.test+" --tb=short -rA", hang)
		m.reason = pyVerdict(code, out, timedOut, err, &t)
		if m.reason == "" { // as for Go: the tests that pass on the mutant are set aside now, checked once
			passed, failed := pytestVerdicts(out)
			t.hidden, _ = setAsidePy(t.hidden, passedWhole(passed, failed), "passes_on_parent_")
			// A test file the project's own pytest does not collect (a bench/
			// folder outside its testpaths) would be scored, and pass, all the
			// same: it stays in the tree, not among the hidden tests.
			ran := map[string]bool{}
			for _, verdicts := range []map[string]bool{passed, failed} {
				for key := range verdicts {
					file, _, _ := strings.Cut(key, "::")
					ran[file] = true
				}
			}
			maps.DeleteFunc(t.hidden, func(name string, _ []byte) bool { return !ran[name] })
		}
	}
	for _, e := range s.edits() {
		if m.reason == "" && namesMutation(t.prompt, string(src[e.Start:e.End]), e.Repl) {
			m.reason = reasonNamesMutant
		}
	}
	if m.reason == "" && quotesChange(t, 8, true) { // a changed line, as it was or became
		m.reason = reasonNamesMutant
	}
	if m.reason != "" {
		return
	}
	t.id = fmt.Sprintf("%s-%d", t.id, s.Start) // two sites may share a line
	m.reason, _ = checkTask(ctx, &t, filepath.Join(staging, "pending", t.id), filepath.Join(staging, "tmp", fmt.Sprint(n)))
	m.t = t // for Go, without the tests the mutant passes (cutPassing)
}

// groupOf is the unit a site's task belongs to: its function, or its file
// for code outside any function.
func groupOf(s site) string {
	if s.Fn == "" {
		return s.File
	}
	return s.File + ":" + s.Fn
}

// byFunction groups sites by groupOf, each group's in their order, and
// names the groups in the order they first appear.
func byFunction(sites []site) (order []string, byFn map[string][]site) {
	byFn = map[string][]site{}
	for _, s := range sites {
		fn := groupOf(s)
		if byFn[fn] == nil {
			order = append(order, fn)
		}
		byFn[fn] = append(byFn[fn], s)
	}
	return order, byFn
}

// combine lists sites by function (in the order functions first appear)
// and, after every third site of a function, adds a combined bug of the
// next two or three of its sites whose spans do not overlap: alternately
// two and three, the first of them the next single site to be tried.
func combine(sites []site) []site {
	order, byFn := byFunction(sites)
	var out []site
	for _, fn := range order {
		own := byFn[fn]
		for i, s := range own {
			out = append(out, s)
			if (i+1)%3 != 0 || i+1 == len(own) {
				continue
			}
			want, bug := 2+(i/3)%2, own[i+1]
			bug.Kind = map[int]string{2: "two-bugs", 3: "three-bugs"}[want]
			for _, o := range own[i+2:] {
				if len(bug.With)+1 == want {
					break
				}
				if !slices.ContainsFunc(bug.edits(), func(e site) bool { return o.Start < e.End && e.Start < o.End }) {
					bug.With = append(bug.With, o)
				}
			}
			if len(bug.With)+1 == want {
				out = append(out, bug)
			}
		}
	}
	return out
}

// spread orders sites in rounds: the first site of every function (in the
// order functions first appear), then the second of each, and so on. The
// gate counts a function's mutants as one unit, so tasks from many
// functions are worth more than as many from a few; shuffled alone, the
// functions with the most sites would take most of the tries.
func spread(sites []site) []site {
	order, byFn := byFunction(sites)
	out := make([]site, 0, len(sites))
	for round := 0; len(out) < len(sites); round++ {
		for _, fn := range order {
			if round < len(byFn[fn]) {
				out = append(out, byFn[fn][round])
			}
		}
	}
	return out
}

// pytestCommand is the machine's pytest on the whole project, with src/
// on the path for a project laid out that way.
func pytestCommand(files map[string][]byte) string {
	for name := range files {
		if strings.HasPrefix(name, "src/") && strings.HasSuffix(name, ".py") {
			return "PYTHONPATH=src python3 -m pytest -q -p no:cacheprovider"
		}
	}
	return "python3 -m pytest -q -p no:cacheprovider"
}

// goEvent is one line of go test -json.
type goEvent struct {
	Action, Package, Test, Output string
	FailedBuild                   string
	Elapsed                       float64
}

// slowPass says whether e is a top-level test passing in a tenth of a
// second or more: one worth skipping where it cannot count.
func (e goEvent) slowPass() bool {
	return e.Action == "pass" && e.Test != "" && !strings.Contains(e.Test, "/") && e.Elapsed >= 0.1
}

// slowPassing names the top-level tests that passed on a mutant and took a
// tenth of a second or more. None of them is hidden, so none counts; the
// task's command skips them (go test -skip), so that its scorings, the
// validator's two and every evaluation's, do not pay for them.
func slowPassing(out []byte) []string {
	var slow []string
	for line := range bytes.SplitSeq(out, []byte("\n")) {
		var e goEvent
		if json.Unmarshal(line, &e) == nil && e.slowPass() {
			slow = append(slow, e.Test)
		}
	}
	slices.Sort(slow)
	return slices.Compact(slow)
}

// goVerdict reads the go test -json run of a mutant: a failing test makes
// t's prompt, the bug report a user would write from it.
func goVerdict(code int, out []byte, timedOut bool, err error, t *task) string {
	switch {
	case err != nil:
		return reasonSandbox
	case timedOut || bytes.Contains(out, []byte("panic: test timed out")):
		return reasonHangs
	case code == 0:
		return reasonSurvives
	}
	failed := map[string]bool{}
	output := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e goEvent
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		if e.FailedBuild != "" || e.Action == "build-fail" {
			return reasonNoBuild
		}
		top, _, _ := strings.Cut(e.Test, "/")
		switch {
		case e.Test != "" && e.Action == "fail" && !strings.Contains(e.Test, "/"):
			failed[e.Test] = true
		case top != "" && e.Action == "output":
			output[top] = append(output[top], e.Output)
		}
	}
	if len(failed) == 0 {
		return reasonNoBuild
	}
	names := slices.Sorted(maps.Keys(failed))
	var lines []string
	for _, l := range output[names[0]] {
		l = strings.TrimRight(l, "\n")
		if strings.TrimSpace(l) == "" || testFraming.MatchString(l) {
			continue
		}
		lines = append(lines, l)
	}
	t.prompt = bugReport(t.test, names, panicSymptom(lines))
	return ""
}

// namesMutation says whether a prompt quotes the code a mutant changed, as
// it was or as it became (6 characters or more, spaces aside): the failing
// output would give the fix away.
func namesMutation(prompt, was, became string) bool {
	p := squash(prompt)
	return quotes(p, was, 6) || quotes(p, became, 6)
}

// panicSymptom cuts a test's panic down to what a user would report: the
// panic's message and the frames in test files, without goroutine headers,
// runtime and testing frames, addresses, or the frame in the code that
// panicked (which would point at the bug). Other output is kept as it is.
func panicSymptom(lines []string) []string {
	at := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "panic: ") })
	if at < 0 {
		return lines
	}
	msg, _, _ := strings.Cut(strings.TrimSpace(lines[at]), " [recovered")
	out := append(slices.Clone(lines[:at]), msg)
	for i, l := range lines[at+1:] {
		file, _, _ := strings.Cut(strings.TrimSpace(l), " +0x")
		if strings.HasSuffix(strings.Split(file, ":")[0], "_test.go") && i > 0 {
			fn, _, _ := strings.Cut(strings.TrimSpace(lines[at+i]), "(")
			out = append(out, "at "+fn+" ("+path.Base(file)+")")
		}
	}
	return out
}

var testFraming = regexp.MustCompile(`^\s*(=== (RUN|PAUSE|CONT|NAME)|--- (FAIL|PASS|SKIP)):? `)

// bugReport is the prompt of a mutant's task.
func bugReport(command string, failing, lines []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "`%s` fails in %s", command, failing[0])
	switch {
	case len(failing) == 2:
		b.WriteString(" (and 1 other test)")
	case len(failing) > 2:
		fmt.Fprintf(&b, " (and %d other tests)", len(failing)-1)
	}
	b.WriteString(".\n")
	if len(lines) > 15 {
		lines = append(lines[:15], "    …")
	}
	if len(lines) > 0 {
		b.WriteString("\n")
		for _, l := range lines {
			b.WriteString("    " + strings.TrimSpace(l) + "\n")
		}
	}
	b.WriteString("\nThe tests are right; find the bug in the code and fix it.\n")
	return b.String()
}

var pyFailed = regexp.MustCompile(`(?m)^FAILED (\S+?)(?: - .*)?$`)
var pySection = regexp.MustCompile(`^_{3,} .* _{3,}$`)

// pyFrame is a frame's first line in pytest's short traceback: its file.
var pyFrame = regexp.MustCompile(`^(\S+\.py):\d+: `)

// pyVerdict reads the pytest run of a mutant.
func pyVerdict(code int, out []byte, timedOut bool, err error, t *task) string {
	switch {
	case err != nil:
		return reasonSandbox
	case timedOut:
		return reasonHangs
	case code == 0:
		return reasonSurvives
	}
	ms := pyFailed.FindAllSubmatch(out, -1)
	if code != 1 || len(ms) == 0 {
		return reasonNoBuild
	}
	var names, lines []string
	for _, m := range ms {
		names = append(names, string(m[1]))
	}
	in, inCode := false, false
	for l := range strings.SplitSeq(string(out), "\n") {
		if strings.HasPrefix(l, "E ") {
			inCode = false // the error itself, whatever frame raised it
		}
		if pySection.MatchString(l) || strings.HasPrefix(l, "=====") {
			if in {
				break // the first failure's section is enough
			}
			in = pySection.MatchString(l)
			continue
		}
		if m := pyFrame.FindStringSubmatch(l); in && m != nil {
			inCode = !isTest(m[1]) // a frame in the code points at the bug: a user sees the test's
		}
		if in && strings.TrimSpace(l) != "" && !inCode {
			lines = append(lines, l)
		}
	}
	t.prompt = bugReport(t.test, names, lines)
	return ""
}

// skips tells a test file that defines a test that skipped on the
// original in package folder dir.
func skips(dir string, b []byte, skipped map[string]bool) bool {
	for _, m := range testDef.FindAllSubmatch(b, -1) {
		if skipped[dir+" "+string(m[1])] {
			return true
		}
	}
	return false
}

// original is what the project's own test run says of its Go tests, each
// keyed "dir TestName": those that skip, and those that pass and take a
// tenth of a second or more.
type original struct{ skipped, slow map[string]bool }

// slowIn is the slow tests of the package in dir, sorted.
func (o original) slowIn(dir string) []string {
	var names []string
	for key := range o.slow {
		if d, name, _ := strings.Cut(key, " "); d == dir {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// skipFlag is go test's -skip of the top-level tests names, or nothing.
func skipFlag(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf(" -skip '^(%s)$'", strings.Join(names, "|"))
}

// goProjectSites runs the project's tests and returns the mutation sites
// of the code of every package whose tests pass, and what the run says of
// its tests.
func goProjectSites(ctx context.Context, files map[string][]byte, goTest string) ([]site, original, error) {
	code, out, _, err := runBox(ctx, files, goTest+" -json -timeout 60s ./...", 10*time.Minute)
	if err != nil {
		return nil, original{}, fmt.Errorf("run the tests in the sandbox: %w", err)
	}
	passed := map[string]bool{}
	mod := modulePath(files["go.mod"])
	orig := original{skipped: map[string]bool{}, slow: map[string]bool{}}
	var failed []string // the tests that fail on the project's own code
	var why, raw string // their first line of output; the first line that is not an event
	for l := range bytes.SplitSeq(out, []byte("\n")) {
		var e goEvent
		switch {
		case json.Unmarshal(l, &e) != nil:
			if raw == "" && len(bytes.TrimSpace(l)) > 0 {
				raw = string(bytes.TrimSpace(l))
			}
		case e.Test != "" && e.Action == "fail":
			failed = append(failed, e.Test)
		case e.Action == "output" && why == "" && strings.Contains(e.Output, ".go:"):
			why = strings.TrimSpace(e.Output)
		case e.Test == "" && e.Action == "pass":
			passed[e.Package] = true
		case e.Test != "" && !strings.Contains(e.Test, "/") && e.Action == "skip" || e.slowPass():
			dir := "."
			if rest, ok := strings.CutPrefix(e.Package, mod+"/"); ok {
				dir = rest
			}
			if e.Action == "skip" {
				orig.skipped[dir+" "+e.Test] = true
			} else {
				orig.slow[dir+" "+e.Test] = true
			}
		}
	}
	if len(passed) == 0 {
		what := cmp.Or(why, raw)
		if len(failed) > 0 {
			what = fmt.Sprintf("%s fail, %s", strings.Join(failed[:min(len(failed), 5)], ", "), what)
		}
		return nil, original{}, fmt.Errorf("no Go package's tests pass on the project's own code (go test exit %d: %.300s); "+
			"mutate needs passing tests: fix them, or pass --rev a commit where they pass", code, what)
	}
	var sites []site
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if !isCode(name) || !strings.HasSuffix(name, ".go") || !passed[path.Join(mod, path.Dir(name))] {
			continue
		}
		sites = append(sites, goSites(name, files[name])...)
	}
	return sites, orig, nil
}

var flips = map[token.Token]token.Token{token.LSS: token.LEQ, token.LEQ: token.LSS, token.GTR: token.GEQ, token.GEQ: token.GTR, token.EQL: token.NEQ, token.NEQ: token.EQL}

// arith and logic are the operators a slip of the hand swaps: the
// arithmetic ones (a string's + becomes a mutant that does not build,
// dropped for it) and the boolean connectives.
var arith = map[token.Token]token.Token{token.ADD: token.SUB, token.SUB: token.ADD, token.MUL: token.QUO,
	token.QUO: token.MUL, token.LAND: token.LOR, token.LOR: token.LAND}
var ordered = map[token.Token]bool{token.LSS: true, token.LEQ: true, token.GTR: true, token.GEQ: true}
var swappable = map[token.Token]bool{token.SUB: true, token.QUO: true, token.REM: true, token.LSS: true, token.LEQ: true, token.GTR: true, token.GEQ: true}

// lastStmt is a block's last statement, or nil.
func lastStmt(b *ast.BlockStmt) ast.Stmt {
	if len(b.List) == 0 {
		return nil
	}
	return b.List[len(b.List)-1]
}

// goSites lists the mutation sites in the function bodies of one Go file.
func goSites(name string, src []byte) []site {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil || ast.IsGenerated(f) {
		return nil
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	text := func(e ast.Expr) string {
		s := string(src[off(e.Pos()):off(e.End())])
		if _, bin := e.(*ast.BinaryExpr); bin {
			return "(" + s + ")"
		}
		return s
	}
	var sites []site
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		fn := fd.Name.Name
		if recv := receiverType(fd); recv != "" {
			fn = recv + "." + fn // two types' String are two functions, two groups
		}
		add := func(kind string, from, to token.Pos, repl string) {
			sites = append(sites, site{File: name, Kind: kind, Fn: fn, Line: fset.Position(from).Line, Start: off(from), End: off(to), Repl: repl})
		}
		bounds := map[ast.Expr]bool{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false // another function
			case *ast.BinaryExpr:
				if op, ok := flips[x.Op]; ok {
					add("flip", x.OpPos, x.OpPos+token.Pos(len(x.Op.String())), op.String())
				}
				if op, ok := arith[x.Op]; ok {
					add("operator", x.OpPos, x.OpPos+token.Pos(len(x.Op.String())), op.String())
				}
				if swappable[x.Op] {
					add("swap", x.Pos(), x.End(), text(x.Y)+" "+x.Op.String()+" "+text(x.X))
				}
				if ordered[x.Op] {
					bounds[x.Y] = true
					repl := text(x.Y) + "+1"
					if lit, ok := x.Y.(*ast.BasicLit); ok && lit.Kind == token.INT {
						if v, err := strconv.ParseInt(lit.Value, 0, 64); err == nil {
							repl = strconv.FormatInt(v+1, 10)
						}
					}
					add("bound", x.Y.Pos(), x.Y.End(), repl)
				}
			case *ast.IfStmt:
				add("negate", x.Cond.Pos(), x.Cond.End(), "!("+string(src[off(x.Cond.Pos()):off(x.Cond.End())])+")")
			case *ast.CallExpr:
				if len(x.Args) == 2 && x.Ellipsis == token.NoPos {
					a, b := x.Args[0], x.Args[1]
					add("args", a.Pos(), b.End(), string(src[off(b.Pos()):off(b.End())])+", "+string(src[off(a.Pos()):off(a.End())]))
				}
			case *ast.BasicLit:
				if v, err := strconv.ParseInt(x.Value, 0, 64); err == nil && x.Kind == token.INT && !bounds[x] {
					add("constant", x.Pos(), x.End(), strconv.FormatInt(v+1, 10))
				}
			case *ast.Ident:
				if x.Name == "true" || x.Name == "false" {
					add("constant", x.Pos(), x.End(), map[string]string{"true": "false", "false": "true"}[x.Name])
				}
			case *ast.BlockStmt:
				for _, s := range x.List {
					switch st := s.(type) {
					case *ast.ExprStmt, *ast.IncDecStmt, *ast.SendStmt, *ast.DeferStmt:
						add("drop", s.Pos(), s.End(), "")
					case *ast.AssignStmt:
						if st.Tok != token.DEFINE {
							add("drop", s.Pos(), s.End(), "")
						}
					case *ast.IfStmt: // an early return or a guard, gone
						if _, ret := lastStmt(st.Body).(*ast.ReturnStmt); ret && st.Else == nil && st.Init == nil {
							add("early-return", s.Pos(), s.End(), "")
						}
					}
				}
			}
			return true
		})
	}
	return sites
}

// pyProjectSites runs the project's tests and returns the mutation sites of
// its code, listed by pymut.py through Python's ast module.
func pyProjectSites(ctx context.Context, files map[string][]byte) ([]site, error) {
	tmp, err := os.MkdirTemp("", "ratchet-pymut-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	script := filepath.Join(tmp, "pymut.py")
	if err := os.WriteFile(script, pymut, 0o644); err != nil {
		return nil, err
	}
	python := "/usr/bin/python3" // the sandbox's own Python, so the syntax it reads is the same
	if _, err := os.Stat(python); err != nil {
		python = "python3"
	}
	var sites []site
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if !isCode(name) || !strings.HasSuffix(name, ".py") || path.Base(name) == "setup.py" || strings.HasPrefix(name, "docs/") {
			continue
		}
		file := filepath.Join(tmp, "src.py")
		if err := os.WriteFile(file, files[name], 0o644); err != nil {
			return nil, err
		}
		out, err := exec.CommandContext(ctx, python, script, file).Output()
		if err != nil {
			continue // not Python this machine reads: no sites
		}
		var found []site
		if err := json.Unmarshal(out, &found); err != nil {
			return nil, fmt.Errorf("pymut.py on %s: %w", name, err)
		}
		for _, s := range found {
			s.File = name
			sites = append(sites, s)
		}
	}
	return sites, nil
}

// setAsideFailingPy runs the project's tests on its own code. A test that
// fails there (one that needs the package installed, a network, a clock)
// can tell no mutant from the original, so it is set aside as cutPassingPy
// sets aside a test that passes on a parent: its def is renamed so pytest
// no longer collects it. It returns the project with those tests set aside
// and their names; an error when the tests still fail after that (a file
// that does not import, a fixture that errs), saying how the run ended.
func setAsideFailingPy(ctx context.Context, files map[string][]byte) (map[string][]byte, []string, error) {
	command := pytestCommand(files)
	code, out, _, err := runBox(ctx, files, command+" -rA", 10*time.Minute)
	if err != nil {
		return nil, nil, fmt.Errorf("run the tests in the sandbox: %w", err)
	}
	var aside []string
	if code != 0 {
		_, failed := pytestVerdicts(out)
		files, aside = setAsidePy(files, slices.Sorted(maps.Keys(failed)), "fails_on_original_")
		if len(aside) > 0 {
			code, out, _, err = runBox(ctx, files, command, 10*time.Minute)
			if err != nil {
				return nil, nil, fmt.Errorf("run the tests in the sandbox: %w", err)
			}
		}
	}
	if code != 0 {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		return nil, nil, fmt.Errorf("the project's tests do not all pass on its own code (pytest: %s); "+
			"mutate needs passing tests", lines[len(lines)-1])
	}
	return files, aside, nil
}

// AddMutants adds up to o.N mutants of o.Repo's code to the suite o.Out
// already holds (tasks mine --mutants): Mutate makes them as a suite of
// their own in a folder beside o.Out, drawing splits per function, and they
// are moved into o.Out's splits. A mutant whose name or files the suite
// already holds (a second run) is left out as the same task.
func AddMutants(ctx context.Context, o MutateOptions) (Summary, error) {
	staging, err := stage(o.Out)
	if err != nil {
		return Summary{}, err
	}
	defer os.RemoveAll(staging)
	into := o.Out
	o.Out = filepath.Join(staging, "suite")
	sum, err := Mutate(ctx, o)
	if err != nil {
		return sum, err
	}
	seen, splits := hashes(into), []string{"train", "holdout", "sealed"}
	taken := func(id string) bool {
		for _, split := range splits {
			if _, err := os.Lstat(filepath.Join(into, split, id)); err == nil {
				return true
			}
		}
		return false
	}
	moved := map[string]int{}
	for _, split := range splits {
		dirs, _ := filepath.Glob(filepath.Join(o.Out, split, "*"))
		for _, d := range dirs {
			files, err := anchor.ReadTree(d, true)
			if err != nil {
				return sum, err
			}
			if _, dup := seen[anchor.HashOf(files)]; dup || taken(filepath.Base(d)) {
				sum.Skipped[reasonSame]++
				continue
			}
			if err := os.MkdirAll(filepath.Join(into, split), 0o755); err != nil {
				return sum, err
			}
			if err := os.Rename(d, filepath.Join(into, split, filepath.Base(d))); err != nil {
				return sum, err
			}
			moved[split]++
		}
	}
	sum.Written = moved
	return sum, nil
}

// receiverType names the type of fd's receiver (T for a T or *T, generic
// or not), or is empty for a function without one.
func receiverType(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}
