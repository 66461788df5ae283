package anchor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"ratchet/harness/fakemodel"
)

// Attacks as data (issue 28). Every hostile harness and hostile agent tree
// the anchor is tested against is a txtar archive in testdata/attacks,
// named by the defence it tests. Its files are the attack, as real Go:
//
//	main.go, go.mod, ...  a whole hostile harness
//	tree/<path>           a file the agent leaves at /work/task/<path>; the
//	                      harness is then the planter (testdata/planter.txtar)
//	memory/memory.go      the one editable file a candidate changes
//	task/<path>           written over the task's own folder
//
// Its comment tells the attack and the defence in plain lines, then says
// how the attack is played, in lines of the form "key: value":
//
//	run: task             RunTask of the harness on a fresh task
//	run: apply            Apply of the edit as a candidate on suiteEnv's ledger
//	run by: TestX         played by a test of its own, which checks the outcome
//	task: sum             addTask (the default), "two packages" or "junit";
//	                      or a language's (langs_test.go): "cargo", "jest",
//	                      "catch2", "junit5" (add is wrong: 0 of 3 pass)
//	command: ...          the task's test command
//	model: <name>         a scripted upstream of models (below)
//	memory: 256 MiB       the anchor's settings: also run disk, budget
//	api: anthropic        the model API; options: MODEL_OPTIONS
//	force: no             RunTask may serve its caches
//	skip: <reason>        an open attack or a known limit: not played
//
// and the expected outcome, a want line each, all of which must hold. Of
// the run (in an apply, of each run of the candidate, of which there must
// be one at least):
//
//	want outcome: forged         also outcome not
//	want score: 0                also score not, score at most
//	want passed: 1               also passed at most, total
//	want error contains: canary
//	want tokens at most: 6000    in and out
//
// of a task run only (after which no cgroup of the anchor may be left):
//
//	want runs: 1                       the ledger's rows for the harness
//	want trace: none                   no trace kept (trace bytes: a kept one)
//	want wrote at most: 96 MiB         the last "wrote N MiB" the harness
//	                                   printed; tmpSize, runDisk or memory
//	                                   name the sandbox's own
//	want heap growth at most: 128 MiB  the anchor's heap over the run
//
// and of an apply only: decision, decision not, reason contains.

// attack is one archive of testdata/attacks.
type attack struct {
	name    string
	files   map[string]string // by path in the archive
	run     string            // "task" or "apply"; "" when runBy plays it
	runBy   string
	task    string
	command string
	model   string
	force   bool
	memory  int64
	runDisk int
	budget  int64
	api     string
	options *string
	skip    string
	wants   []want
}

// want is one expected outcome: what it measures, and the value it must
// have there, as text and as a number (sizes in bytes).
type want struct {
	what, text string
	num        float64
}

// wantKinds are the expectations an archive may state, each with the
// value it takes (text, a number, a size, or one word) and where it holds.
var wantKinds = map[string]struct{ value, where string }{
	"outcome":             {"text", "run"},
	"outcome not":         {"text", "run"},
	"score":               {"number", "run"},
	"score not":           {"number", "run"},
	"score at most":       {"number", "run"},
	"passed":              {"number", "run"},
	"passed at most":      {"number", "run"},
	"total":               {"number", "run"},
	"error contains":      {"text", "run"},
	"runs":                {"number", "task"},
	"tokens at most":      {"number", "run"},
	"trace":               {"none", "task"},
	"trace bytes":         {"number", "task"},
	"wrote at most":       {"size", "task"},
	"heap growth at most": {"size", "task"},
	"decision":            {"text", "apply"},
	"decision not":        {"text", "apply"},
	"reason contains":     {"text", "apply"},
}

// sandboxSizes are the names a "wrote at most" may give for a size the
// anchor sets itself: it follows the anchor when that changes.
var sandboxSizes = map[string]func(a *Anchor) float64{
	"tmpSize": func(*Anchor) float64 { return tmpSize },
	"runDisk": func(*Anchor) float64 { return float64(runDisk) },
	"memory":  func(a *Anchor) float64 { return float64(a.Memory) },
}

// models are the scripted upstreams an archive may name. Without one the
// fake server answers every request "done". Each call makes a fresh one.
var models = map[string]func() []fakemodel.Step{
	// One prompt token a byte, as a BPE tokenizer charges for "1,1,1,...".
	"a token a byte": func() []fakemodel.Step {
		return []fakemodel.Step{{Func: func(r fakemodel.Request) fakemodel.Step {
			return fakemodel.Step{Text: "ok", In: len(r.Body), Out: 1}
		}}}
	},
	// Healthy, but a 500 on one input (a template it cannot render).
	"500 on MAKE-IT-FAIL": func() []fakemodel.Step {
		return repeat(fakemodel.Step{Func: func(r fakemodel.Request) fakemodel.Step {
			if strings.Contains(string(r.Body), "MAKE-IT-FAIL") {
				return fakemodel.Step{Status: 500, Body: `{"error":"template: cannot render"}`}
			}
			return fakemodel.Step{Text: "ok", In: 10, Out: 1}
		}}, 100)
	},
	// Healthy, but its handler aborts on one input: the connection drops.
	"drops MAKE-IT-DROP": func() []fakemodel.Step {
		return repeat(fakemodel.Step{Func: func(r fakemodel.Request) fakemodel.Step {
			if strings.Contains(string(r.Body), "MAKE-IT-DROP") {
				panic(http.ErrAbortHandler) // net/http closes the connection without a reply
			}
			return fakemodel.Step{Text: "ok", In: 10, Out: 1}
		}}, 100)
	},
	// Gives up on the first request and says FIX on the second.
	"gives up, then fixes": func() []fakemodel.Step {
		return []fakemodel.Step{{Text: "I give up.", In: 20, Out: 5}, {Text: "FIX", In: 20, Out: 5}}
	},
	// Anthropic with extended thinking (thinkingUpstream).
	"thinking": func() []fakemodel.Step {
		var fixes atomic.Int64
		return repeat(thinkingUpstream(&fixes), 100)
	},
}

// thinkingUpstream answers like Anthropic's messages API with extended
// thinking on: a request whose max_tokens is not above
// thinking.budget_tokens is a 400. A request holding "stall" takes 3 s.
// The first "fix" request gets a give-up, every later one the fix.
func thinkingUpstream(fixes *atomic.Int64) fakemodel.Step {
	return fakemodel.Step{Func: func(r fakemodel.Request) fakemodel.Step {
		var body struct {
			MaxTokens int `json:"max_tokens"`
			Thinking  struct {
				BudgetTokens int `json:"budget_tokens"`
			} `json:"thinking"`
		}
		json.Unmarshal(r.Body, &body)
		if body.Thinking.BudgetTokens > 0 && body.MaxTokens <= body.Thinking.BudgetTokens {
			return fakemodel.Step{Status: 400, Body: `{"type":"error","error":{"type":"invalid_request_error",` +
				`"message":"max_tokens must be greater than thinking.budget_tokens"}}`}
		}
		if strings.Contains(string(r.Body), "stall") {
			time.Sleep(3 * time.Second)
			return fakemodel.Step{Text: "still thinking", In: 20, Out: 5}
		}
		if fixes.Add(1) == 1 {
			return fakemodel.Step{Text: "I give up.", In: 20, Out: 5}
		}
		return fakemodel.Step{Text: "FIX", In: 20, Out: 5}
	}}
}

const attacksDir = "testdata/attacks"

// TestAttacks plays each archive of testdata/attacks through the real
// anchor and bubblewrap, as its comment says, and checks what it expects.
// An archive a test of its own plays is left to that test. An attack that
// must be alone in the process (alone) is played first, one at a time; the
// others then two at a time (go test's -parallel, GOMAXPROCS), each its
// own ledger, model server and sandboxes. No other test runs meanwhile:
// TestAttacks is not parallel.
func TestAttacks(t *testing.T) {
	slow(t)
	names, _ := filepath.Glob(filepath.Join(attacksDir, "*.txtar"))
	if len(names) == 0 {
		t.Fatal("no attacks in " + attacksDir)
	}
	for _, p := range names {
		a := loadAttack(t, strings.TrimSuffix(filepath.Base(p), ".txtar"))
		if a.runBy != "" {
			continue
		}
		t.Run(a.name, func(t *testing.T) {
			if a.skip != "" {
				t.Skip(a.skip)
			}
			if !a.alone() {
				t.Parallel()
			}
			if a.run == "apply" {
				a.playApply(t)
			} else {
				a.playTask(t)
			}
		})
	}
}

// TestAttackArchives fails fast on a broken archive, before any sandbox:
// every one parses, its Go (and Go source held in a raw string) is
// gofmt-formatted, and one played by a test of its own names a test that
// names it back.
func TestAttackArchives(t *testing.T) {
	tests := testFuncs(t)
	names, _ := filepath.Glob(filepath.Join(attacksDir, "*.txtar"))
	for _, p := range append(names, "testdata/planter.txtar") {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".go") {
				checkFormatted(t, p+": "+f.Name, f.Data)
			}
		}
		if p == "testdata/planter.txtar" {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(p), ".txtar")
		a, err := parseAttack(name, ar)
		if err != nil {
			t.Error(err)
			continue
		}
		if a.runBy != "" {
			body, ok := tests[a.runBy]
			if !ok {
				t.Errorf("%s: run by %s, which is no test of the anchor", name, a.runBy)
			} else if !strings.Contains(body, strconv.Quote(name)) {
				t.Errorf("%s: run by %s, which never names it", name, a.runBy)
			}
		}
	}
}

// alone reports whether an attack must be played with nothing else running
// in the process: it measures the anchor's heap, which any other run moves,
// or sets runDisk, a package variable every run reads.
func (a *attack) alone() bool {
	return a.runDisk != 0 || slices.ContainsFunc(a.wants, func(w want) bool { return w.what == "heap growth at most" })
}

// inFlight is held shared by an attack while its anchor runs, and whole to
// list the anchor's cgroups at a moment when no run of the process is in
// flight: any cgroup left then was left behind.
var inFlight sync.RWMutex

// checkFormatted fails unless src, and every raw string in it that holds a
// Go file, is as gofmt would write it.
func checkFormatted(t *testing.T, where string, src []byte) {
	t.Helper()
	if out, err := format.Source(src); err != nil || !bytes.Equal(out, src) {
		t.Errorf("%s is not gofmt-formatted Go (%v)", where, err)
		return
	}
	f, _ := parser.ParseFile(token.NewFileSet(), "", src, 0)
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if ok && lit.Kind == token.STRING && strings.HasPrefix(lit.Value, "`package ") {
			inner := []byte(strings.Trim(lit.Value, "`"))
			if out, err := format.Source(inner); err != nil || !bytes.Equal(out, inner) {
				t.Errorf("%s: the Go file in a raw string is not gofmt-formatted (%v)", where, err)
			}
		}
		return true
	})
}

// testFuncs returns the source of every Test function of the package.
func testFuncs(t *testing.T) map[string]string {
	t.Helper()
	funcs := map[string]string{}
	files, _ := filepath.Glob("*_test.go")
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && strings.HasPrefix(fn.Name.Name, "Test") && fn.Recv == nil {
				funcs[fn.Name.Name] = string(src[fset.Position(fn.Pos()).Offset:fset.Position(fn.End()).Offset])
			}
		}
	}
	return funcs
}

// loadAttack reads and parses testdata/attacks/name.txtar.
func loadAttack(t testing.TB, name string) *attack {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join(attacksDir, name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := parseAttack(name, ar)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// attackFor loads an archive that a test of its own plays: the archive
// must say so, so that TestAttacks leaves it alone.
func attackFor(t *testing.T, name string) *attack {
	t.Helper()
	a := loadAttack(t, name)
	if top, _, _ := strings.Cut(t.Name(), "/"); a.runBy != top {
		t.Fatalf("%s says it is run by %q, not %s", name, a.runBy, top)
	}
	return a
}

// parseAttack reads an archive's files and the key: value lines of its
// comment; every other line of the comment is prose.
func parseAttack(name string, ar *txtar.Archive) (*attack, error) {
	a := &attack{name: name, files: map[string]string{}, task: "sum", force: true}
	for _, f := range ar.Files {
		a.files[f.Name] = string(f.Data)
	}
	prose := 0
	for i, line := range strings.Split(string(ar.Comment), "\n") {
		if err := a.parseLine(strings.TrimSpace(line), &prose); err != nil {
			return nil, fmt.Errorf("%s.txtar:%d: %v", name, i+1, err)
		}
	}
	return a, a.valid(prose)
}

// parseLine reads one line of the comment, counting the prose.
func (a *attack) parseLine(line string, prose *int) error {
	key, value, ok := strings.Cut(line, ": ")
	if !ok {
		key = "" // prose, or a blank line
	}
	if what, isWant := strings.CutPrefix(key, "want "); isWant {
		return a.parseWant(what, value)
	}
	var err error
	switch key {
	case "run":
		a.run = value
	case "run by":
		a.runBy = value
	case "task":
		a.task = value
	case "command":
		a.command = value
	case "model":
		a.model = value
	case "memory":
		a.memory, err = parseSize(value)
	case "run disk":
		var n int64
		n, err = parseSize(value)
		a.runDisk = int(n)
	case "budget":
		a.budget, err = strconv.ParseInt(value, 10, 64)
	case "api":
		a.api = value
	case "options":
		a.options = &value
	case "force":
		if value != "yes" && value != "no" {
			err = fmt.Errorf("force is yes or no, not %q", value)
		}
		a.force = value == "yes"
	case "skip":
		a.skip = value
	default:
		if line != "" {
			*prose++
		}
	}
	return err
}

// parseWant reads the value of a want line as its kind says.
func (a *attack) parseWant(what, value string) error {
	kind, ok := wantKinds[what]
	if !ok {
		return fmt.Errorf("no expectation %q", what)
	}
	w := want{what: what, text: value}
	var err error
	switch kind.value {
	case "number":
		w.num, err = strconv.ParseFloat(value, 64)
	case "size":
		if _, named := sandboxSizes[value]; !named {
			var n int64
			n, err = parseSize(value)
			w.num = float64(n)
		}
	case "none":
		if value != "none" {
			err = fmt.Errorf("want %s: none is its one value", what)
		}
	}
	a.wants = append(a.wants, w)
	return err
}

// valid checks what the lines say together.
func (a *attack) valid(prose int) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s.txtar: "+format, append([]any{a.name}, args...)...)
	}
	if prose == 0 {
		return fail("the comment tells no attack")
	}
	if (a.run == "") == (a.runBy == "") {
		return fail("say either run: task or apply, or run by: a test")
	}
	if a.runBy != "" {
		if len(a.wants) > 0 || a.skip != "" {
			return fail("its test checks what it expects: no want or skip lines")
		}
		return nil
	}
	if a.run != "task" && a.run != "apply" {
		return fail("run: %q is neither task nor apply", a.run)
	}
	if len(a.wants) == 0 {
		return fail("no want line: nothing is expected")
	}
	if _, ok := models[a.model]; a.model != "" && !ok {
		return fail("no model %q", a.model)
	}
	if !slices.Contains([]string{"sum", "two packages", "junit", "cargo", "jest", "catch2", "junit5"}, a.task) {
		return fail("no task %q", a.task)
	}
	if a.task == "two packages" && a.command == "" || a.task == "junit" && a.command != "" {
		return fail("a two-package task needs a command; a junit task has its own")
	}
	for _, w := range a.wants {
		if where := wantKinds[w.what].where; where != "run" && where != a.run {
			return fail("want %s holds in a %s, not in a %s", w.what, where, a.run)
		}
	}
	if a.run == "apply" {
		if len(a.files) != 1 || a.model != "" || a.command != "" || a.task != "sum" || a.memory+a.budget != 0 || a.runDisk != 0 {
			return fail("an apply is one edited file, on suiteEnv's suite and settings")
		}
		return nil
	}
	planted := slices.ContainsFunc(slices.Collect(maps.Keys(a.files)), func(p string) bool { return strings.HasPrefix(p, "tree/") })
	if _, ok := a.files["main.go"]; ok == planted {
		return fail("a task attack is a harness (main.go) or a tree to plant (tree/), one of the two")
	}
	return nil
}

// parseSize reads "96 MiB" or a number of bytes.
func parseSize(s string) (int64, error) {
	if n, ok := strings.CutSuffix(s, " MiB"); ok {
		v, err := strconv.ParseInt(n, 10, 64)
		return v << 20, err
	}
	return strconv.ParseInt(s, 10, 64)
}

// harness returns the harness's files: all but the task's.
func (a *attack) harness() map[string]string {
	files := map[string]string{}
	for p, body := range a.files {
		if !strings.HasPrefix(p, "task/") {
			files[p] = body
		}
	}
	return files
}

// edit returns the one harness file an apply's candidate changes.
func (a *attack) edit() (component, content string) {
	for p, body := range a.files {
		return p, body
	}
	return "", ""
}

// writeTask writes the archive's task into suite, named after the archive.
func (a *attack) writeTask(t *testing.T, suite string) string {
	t.Helper()
	var dir string
	switch a.task {
	case "two packages":
		dir = addTwoPackageTask(t, suite, a.name, a.command)
	case "junit":
		dir = addJUnitTask(t, suite, a.name)
	case "cargo", "jest", "catch2", "junit5":
		lt, _ := langTaskOf(strings.TrimSuffix(a.task, "5"))
		dir = lt.writeIn(t, suite, a.name)
	default:
		dir = addTask(t, suite, "train", a.name)
		if a.command != "" {
			writeFiles(t, dir, map[string]string{"task.toml": "prompt = \"Sum is wrong for " + a.name + ". Fix it.\"\ntest = " +
				strconvQuote(a.command) + "\ntimeout = \"120s\"\n"})
		}
	}
	for p, body := range a.files {
		if rel, ok := strings.CutPrefix(p, "task/"); ok {
			writeFiles(t, dir, map[string]string{rel: body})
		}
	}
	return dir
}

// playTask runs the archive's harness on its task, once.
func (a *attack) playTask(t *testing.T) {
	var steps []fakemodel.Step
	if a.model != "" {
		steps = models[a.model]()
	}
	e := newEnv(t, steps...)
	if a.memory > 0 {
		e.a.Memory = a.memory
	}
	if a.budget > 0 {
		e.a.Budget = a.budget
	}
	if a.api != "" {
		e.a.API = a.api
	}
	if a.options != nil {
		e.a.Options = *a.options
	}
	if a.runDisk > 0 {
		defer func(d int) { runDisk = d }(runDisk)
		runDisk = a.runDisk
	}
	task := a.writeTask(t, e.suite)
	h := e.hostile(t, a.harness(), nil)
	run := func() (Run, error) { return e.a.RunTask(ctx(), h, task, 0, a.force) }
	inFlight.RLock()
	r, grew, err := heapPeak(run) // RunTask returns its failures
	inFlight.RUnlock()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("outcome %q, %d of %d, %d tokens; the anchor's heap grew by %d MiB: %s",
		r.Outcome, r.Passed, r.Total, r.TokensIn+r.TokensOut, grew>>20, strings.Join(strings.Fields(r.Error), " "))
	runs := runsOf(t, e, h)
	for _, w := range a.wants {
		if msg := checkRun(r, w) + checkTask(e, r, runs, grew, w); msg != "" {
			t.Error(msg)
		}
	}
	inFlight.Lock()
	left := cgroups()
	inFlight.Unlock()
	if len(left) > 0 {
		t.Errorf("cgroups left behind: %v", left)
	}
}

// playApply applies the archive's edit as a candidate on suiteEnv's ledger.
func (a *attack) playApply(t *testing.T) {
	var e *testEnv
	var err error
	func() {
		inFlight.RLock()
		defer inFlight.RUnlock() // t.Fatal too
		var dir string
		e, dir = suiteEnv(t)
		component, content := a.edit()
		err = e.a.Apply(ctx(), e.candidate(t, component, makeDiff(t, dir, map[string]string{component: content})))
	}()
	if err != nil {
		t.Fatal(err)
	}
	g := e.last(t)
	t.Logf("the candidate: %s: %s", g.Decision, g.Reason)
	runs := runsOf(t, e, g.Hash)
	if len(runs) == 0 {
		t.Error("no run of the candidate was recorded")
	}
	for _, w := range a.wants {
		switch w.what {
		case "decision":
			if g.Decision != w.text {
				t.Errorf("decision %q, want %q: %s", g.Decision, w.text, g.Reason)
			}
		case "decision not":
			if g.Decision == w.text {
				t.Errorf("decision %q: %s", g.Decision, g.Reason)
			}
		case "reason contains":
			if !strings.Contains(g.Reason, w.text) {
				t.Errorf("reason %q, want it to say %q", g.Reason, w.text)
			}
		default:
			for _, r := range runs {
				if msg := checkRun(r, w); msg != "" {
					t.Errorf("run %s on %s: %s", r.ID, r.TaskID, msg)
				}
			}
		}
	}
}

// checkRun checks one expectation of a run's record, and says what failed.
func checkRun(r Run, w want) string {
	is := func(ok bool, got any) string {
		if ok {
			return ""
		}
		return fmt.Sprintf("want %s %s; got %v (outcome %q, %d of %d: %.300s)", w.what, w.text, got, r.Outcome, r.Passed, r.Total, r.Error)
	}
	switch w.what {
	case "outcome":
		return is(string(r.Outcome) == w.text, r.Outcome)
	case "outcome not":
		return is(string(r.Outcome) != w.text, r.Outcome)
	case "score":
		return is(r.Score == w.num, r.Score)
	case "score not":
		return is(r.Score != w.num, r.Score)
	case "score at most":
		return is(r.Score <= w.num, r.Score)
	case "passed":
		return is(float64(r.Passed) == w.num, r.Passed)
	case "passed at most":
		return is(float64(r.Passed) <= w.num, r.Passed)
	case "total":
		return is(float64(r.Total) == w.num, r.Total)
	case "error contains":
		return is(strings.Contains(r.Error, w.text), strconv.Quote(r.Error))
	case "tokens at most":
		return is(float64(r.TokensIn+r.TokensOut) <= w.num, r.TokensIn+r.TokensOut)
	}
	return ""
}

// wrote finds what a harness says it wrote ("wrote 96 MiB").
var wrote = regexp.MustCompile(`wrote (\d+) MiB`)

// checkTask checks one expectation only a task run has: runs are the
// harness's rows in the ledger, grew how far the anchor's heap grew.
func checkTask(e *testEnv, r Run, runs []Run, grew int64, w want) string {
	switch w.what {
	case "runs":
		if float64(len(runs)) != w.num {
			var outcomes []string
			for _, x := range runs {
				outcomes = append(outcomes, string(x.Outcome))
			}
			return fmt.Sprintf("%d runs recorded (%v), want %s: a lost run was drawn again", len(runs), outcomes, w.text)
		}
	case "trace":
		if r.TracePath != "" {
			return "trace kept at " + r.TracePath
		}
		if _, err := os.Lstat(e.a.path("traces", r.ID+".jsonl")); err == nil {
			return "something was left in traces/ for " + r.ID
		}
	case "trace bytes":
		if st, err := os.Lstat(r.TracePath); err != nil || !st.Mode().IsRegular() || float64(st.Size()) != w.num {
			return fmt.Sprintf("trace %q: %v %v, want a regular file of %s bytes", r.TracePath, st, err, w.text)
		}
	case "wrote at most":
		limit := w.num
		if size, ok := sandboxSizes[w.text]; ok {
			limit = size(e.a)
		}
		most := 0
		for _, m := range wrote.FindAllStringSubmatch(r.Error, -1) {
			most, _ = strconv.Atoi(m[1])
		}
		if float64(most)*(1<<20) > limit {
			return fmt.Sprintf("the harness wrote %d MiB, more than %s (%v MiB)", most, w.text, limit/(1<<20))
		}
	case "heap growth at most":
		if float64(grew) > w.num {
			return fmt.Sprintf("the anchor's heap grew by %d MiB during one run, more than %s", grew>>20, w.text)
		}
	}
	return ""
}

// cgroups lists the cgroups the anchors of this process have left: none
// once a run is over.
func cgroups() []string {
	var all []string
	for _, controller := range []string{"pids", "memory"} {
		left, _ := filepath.Glob("/sys/fs/cgroup/" + controller + "/ratchet-" + strconv.Itoa(os.Getpid()) + "-*")
		all = append(all, left...)
	}
	return all
}

// heapPeak calls run and returns what it returns and how far the
// anchor's heap grew above where it stood before, at its peak.
func heapPeak(run func() (Run, error)) (Run, int64, error) {
	runtime.GC()
	var before, now runtime.MemStats
	runtime.ReadMemStats(&before)
	var stop atomic.Bool
	sampled := make(chan uint64)
	go func() {
		top := uint64(0)
		for !stop.Load() {
			runtime.ReadMemStats(&now)
			top = max(top, now.HeapInuse)
			time.Sleep(50 * time.Millisecond)
		}
		sampled <- top
	}()
	r, err := run()
	stop.Store(true)
	top := <-sampled
	return r, int64(top) - int64(before.HeapInuse), err
}

// runsOf returns every runs row of a harness, infra included.
func runsOf(t testing.TB, e *testEnv, hash string) []Run {
	t.Helper()
	return must(scan(e.a.db, (*Run).fields, `SELECT `+runCols+` FROM runs WHERE harness_hash = ? ORDER BY created_at`, hash))
}

// hostile snapshots a hostile harness: files holds it by path (main.go,
// go.mod, manifest.toml, ...), and tree/<path> the files it plants at
// /work/task/<path>; without a main.go the harness is the planter
// (testdata/planter.txtar). vars fill each {{name}} in the files with a
// value only the test knows (a server's URL, a nonce).
func (e *testEnv) hostile(t testing.TB, files map[string]string, vars map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "hostile")
	all := map[string]string{}
	if _, ok := files["main.go"]; !ok {
		ar, err := txtar.ParseFile("testdata/planter.txtar")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			all[f.Name] = string(f.Data)
		}
	}
	for p, body := range files {
		all[p] = fillIn(body, vars)
	}
	writeFiles(t, dir, all)
	hash, err := e.a.Snapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	return hash
}

// fillIn replaces each {{name}} of vars in body.
func fillIn(body string, vars map[string]string) string {
	for k, v := range vars {
		body = strings.ReplaceAll(body, "{{"+k+"}}", v)
	}
	return body
}

// addTwoPackageTask writes a Go task of two packages, a and b, each with the
// off-by-one Sum of addTask and two hidden tests, run by command.
func addTwoPackageTask(t *testing.T, suite, id, command string) string {
	t.Helper()
	dir := filepath.Join(suite, "train", id)
	files := map[string]string{
		"task.toml":   "prompt = \"Sum is wrong in a and b. Fix it.\"\ntest = " + strconvQuote(command) + "\ntimeout = \"120s\"\n",
		"repo/go.mod": "module example.com/" + id + "\n\ngo 1.26\n",
	}
	for _, p := range []string{"a", "b"} {
		files["repo/"+p+"/sum.go"] = strings.Replace(buggySum, "package sum", "package "+p, 1)
		files["hidden/"+p+"/sum_test.go"] = "package " + p + "\n\nimport \"testing\"\n\n" +
			"func TestEmpty(t *testing.T) {\n\tif Sum(nil) != 0 {\n\t\tt.Fatal(\"empty\")\n\t}\n}\n\n" +
			"func TestThree(t *testing.T) {\n\tif got := Sum([]int{1, 2, 3}); got != 6 {\n\t\tt.Fatalf(\"Sum = %d, want 6\", got)\n\t}\n}\n"
		files["reference/"+p+"/sum.go"] = strings.Replace(fixedSum, "package sum", "package "+p, 1)
	}
	writeFiles(t, dir, files)
	return dir
}
