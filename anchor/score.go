package anchor

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// Scored is what scoring found. Outcome is "" for a clean scoring, else
// forged (the tree tried to fake a result), scoring (the scoring run went
// wrong, the tree's fault) or infra (the sandbox could not start).
type Scored struct {
	Passed, Total int
	Outcome       Outcome
	Error         string
	Report        *Report // nil when nothing was counted
}

// Report is what a scoring run saw beyond the task's own files: from it and
// the task, Count re-derives the score (ratchet verify).
type Report struct {
	Exit       int
	Out, JUnit []byte
	Mods       map[string][]byte // the tree's go.mod files, which name its packages
	Canaries   map[string]bool
}

// ScoreTree scores an agent's final tree for task t in fresh sandboxes under
// dir: the agent's test files are replaced by the task's own, hidden/ is
// overlaid, a canary test that must fail is planted in every package with
// hidden Go tests, Go test binaries are compiled before any runs and then run
// directly (compileTests), and only hidden tests are counted.
func ScoreTree(ctx context.Context, t Task, agent map[string][]byte, dir string, memory int64) Scored {
	repo, err := ReadTree(filepath.Join(t.Dir, "repo"), true)
	if err != nil {
		return Scored{Total: 1, Outcome: OutcomeInfra, Error: "read the task: " + err.Error()}
	}
	hidden, err := ReadTree(filepath.Join(t.Dir, "hidden"), true)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return Scored{Total: 1, Outcome: OutcomeInfra, Error: "read the task: " + err.Error()}
	}
	if reason := screen(agent, repo); reason != "" {
		return Scored{Total: 1, Outcome: OutcomeForged, Error: "forged: " + reason}
	}
	r := t.runner()
	tasks := func(name string) bool { // the task's files, never the agent's: its tests and its runner's
		return isTestFile(name) || r != nil && (r.test.MatchString(name) || r.owned.MatchString(name))
	}
	files := map[string][]byte{}
	for name, b := range agent {
		if !tasks(name) {
			files[name] = b
		}
	}
	for name, b := range repo {
		if tasks(name) {
			files[name] = b
		}
	}
	maps.Copy(files, hidden)
	delete(files, path.Clean(filepath.ToSlash(t.JUnit))) // a report left behind is not a result
	canaries := map[string]bool{}
	if t.goTest() {
		canaries = plantCanaries(files, hidden)
	}
	if r != nil { // scored by the anchor's own command and report (runners.go)
		t.JUnit = r.report
		t.Test, canaries = r.plant(files, hidden)
	}
	warm, err := WarmCache()
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return Scored{Total: 1, Outcome: OutcomeInfra, Error: "prepare scoring: " + err.Error()}
	}
	// Its own bounded space, twice a run's, holding the sandboxes' /work and
	// their scratch, so an agent that filled its own cannot starve scoring.
	// A tree that cannot be written (a folder where a test file goes) is the
	// tree's fault, never the machine's.
	defer bound(dir, 2*runDisk)()
	work := filepath.Join(dir, "work")
	if err := WriteTree(filepath.Join(work, "task"), files); err != nil {
		return Scored{Total: 1, Outcome: OutcomeScoring, Error: "the final tree cannot be scored: " + err.Error()}
	}
	box := Box{Work: work, Cache: warm, Dir: "/work/task", Memory: memory}
	box.Timeout = max(t.Timeout, 5*time.Minute)
	script, why := t.ScoreCommand(), ""
	if t.goTest() {
		box.Opt = filepath.Join(dir, "opt") // scoring's test binaries, test2json and hider
		if script, why, err = compileTests(ctx, t, files, hidden, box); err != nil {
			return Scored{Total: 1, Outcome: OutcomeInfra, Error: "scoring: " + errors.Join(err, ctx.Err()).Error()}
		}
	}
	box.Args, box.Output = []string{"sh", "-c", script}, 32<<20 // every event of go test -json must be seen
	code, out, timedOut, err := box.Run(ctx)
	switch {
	case err != nil || ctx.Err() != nil: // a scoring cut short by a cancelled eval is no score
		return Scored{Total: 1, Outcome: OutcomeInfra, Error: "scoring: " + errors.Join(err, ctx.Err()).Error()}
	case timedOut:
		return Scored{Total: 1, Outcome: OutcomeScoring, Error: "scoring timed out"}
	}
	var report []byte
	if t.JUnit != "" {
		if f, err := openData(filepath.Join(work, "task"), t.JUnit); err == nil {
			// A longer report is cut, and fails to parse; the file was only read.
			report, _ = io.ReadAll(io.LimitReader(f, 16<<20))
			f.Close()
		}
	}
	rep := &Report{Exit: code, Out: out, JUnit: report, Mods: map[string][]byte{}, Canaries: canaries}
	for name, b := range files {
		if path.Base(name) == "go.mod" {
			rep.Mods[name] = b
		}
	}
	s := Count(t, out, code, report, hidden, rep.Mods, canaries, cmp.Or(why, firstLine(out, "output")))
	s.Report = rep
	return s
}

// openData opens name under dir as data, never as a way elsewhere: through
// os.Root (a link cannot lead out), not itself a link, without blocking on a
// FIFO, and only a regular file. The harness writes everything it reads.
func openData(dir, name string) (*os.File, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file", name)
	}
	if err != nil {
		f.Close() // refused already; the refusal is the error
		return nil, err
	}
	return f, nil
}

// words makes each NUL-ended string of b one word of sh: one quoted string,
// its quotes closed and opened again at each NUL.
func words(b []byte) string {
	return strings.ReplaceAll(quote(strings.TrimSuffix(string(b), "\x00")), "\x00", "' '")
}

// firstLine is the first line of out that says something, from an event of
// the given action or a line that is no event at all: in the build's
// output, its first compiler error (after the "# package" line) or go's own
// complaint; in scoring's, what a test binary printed before it reported.
func firstLine(out []byte, action string) string {
	for _, line := range bytes.Split(out, []byte("\n")) {
		e := struct{ Action, Output string }{action, string(line)}
		json.Unmarshal(line, &e) // a line that is no JSON is left as it is
		if text := strings.TrimSpace(e.Output); e.Action == action && text != "" && !strings.HasPrefix(text, "#") {
			return text
		}
	}
	return ""
}

// isTestFile tells the files that belong to the task's tests, never to the
// agent: Go and Python test files.
func isTestFile(name string) bool {
	base := path.Base(name)
	return strings.HasSuffix(base, "_test.go") || strings.HasSuffix(base, "_test.py") ||
		(strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py")) || base == "conftest.py"
}

var testFunc = regexp.MustCompile(`(?m)^func (Test\w*)\(\w+ \*testing\.T\)`)
var moduleLine = regexp.MustCompile(`(?m)^module\s+(\S+)`)

// goPackage is the import path go test reports for the files of the tree
// in dir: the module of the nearest go.mod at or above dir, joined with the
// path below it (a task's module may lie in a subfolder its command enters).
func goPackage(files map[string][]byte, dir string) string {
	for mod := dir; ; mod = path.Dir(mod) {
		if m := moduleLine.FindSubmatch(files[path.Join(mod, "go.mod")]); m != nil {
			below, _ := filepath.Rel(mod, dir)
			return path.Join(string(m[1]), below) // "." is the module itself
		}
		if mod == "." {
			return path.Join("command-line-arguments", dir)
		}
	}
}

// Count counts passed and total hidden tests from the scoring run: go test
// -json events keyed by package and test, a JUnit XML report, or the exit
// status. A hidden test that does not report failed; tests the agent added
// do not count either way. A canary that did not fail marks the run forged.
// Scoring counts through it, and ratchet verify re-counts a stored Report.
func Count(t Task, out []byte, exit int, report []byte, hidden, files map[string][]byte,
	canaries map[string]bool, why string) Scored {
	switch {
	case t.runner() != nil: // as scoring ran it, or as verify reads the task
		return t.runner().count(report, canaries)
	case t.JUnit != "":
		return junit(report, exit)
	case !t.goTest():
		if exit == 0 {
			return Scored{Passed: 1, Total: 1}
		}
		return Scored{Total: 1}
	}
	final, failedIn, passedIn := map[string]string{}, map[string]bool{}, map[string]bool{}
	for _, line := range bytes.Split(out, []byte("\n")) {
		var e struct{ Action, Package, Test string }
		if json.Unmarshal(line, &e) == nil && e.Test != "" &&
			(e.Action == "pass" || e.Action == "fail" || e.Action == "skip") {
			final[e.Package+" "+e.Test] = e.Action
		}
	}
	s, heard := Scored{}, false
	for name, b := range hidden {
		pkg := goPackage(files, path.Dir(name))
		for _, m := range testFunc.FindAllSubmatch(b, -1) {
			if !strings.HasSuffix(name, "_test.go") {
				continue
			}
			s.Total++
			action := final[pkg+" "+string(m[1])]
			heard = heard || action != ""
			switch action {
			case "pass":
				s.Passed++
				passedIn[pkg] = true
			case "fail": // only a hidden test's failure counts: a forger can report any other name
				failedIn[pkg] = true
			}
		}
	}
	// A canary must fail. One that never reported is a forgery only where
	// hidden tests passed and nothing failed: a test binary that panicked
	// stops before the rest, and reports the panicking test failed.
	for key := range canaries {
		pkg, _, _ := strings.Cut(key, " ")
		action := final[key]
		if action == "pass" || action == "skip" || (action == "" && passedIn[pkg] && !failedIn[pkg]) {
			return Scored{Total: max(s.Total, 1), Outcome: OutcomeForged,
				Error: fmt.Sprintf("forged: the canary %s, which must fail, reported %q", key, action)}
		}
	}
	if s.Total > 0 && !heard { // why nothing counted: a build failure is named by its first compiler line
		s.Error = "no hidden test reported: " + cmp.Or(why, "the command ran none of their packages' tests")
	}
	if s.Total == 0 { // no hidden Go tests: the exit status decides
		s.Total, s.Passed = 1, b2i(exit == 0)
	}
	return s
}

type testCase struct {
	File    string    `xml:"file,attr"`
	Name    string    `xml:"name,attr"`
	Failure *struct{} `xml:"failure"`
	Error   *struct{} `xml:"error"`
	Skipped *struct{} `xml:"skipped"`
}

// junit counts the test cases of a JUnit XML report; a case holding a
// failure, an error or a skip did not pass. An unreadable report is one
// failure, and so is a failed command whose report shows no failure.
func junit(report []byte, exit int) Scored {
	var doc struct {
		Cases []testCase `xml:"testsuite>testcase"`
		Top   []testCase `xml:"testcase"`
	}
	if err := xml.Unmarshal(report, &doc); err != nil {
		return Scored{Total: 1, Error: "the JUnit report is missing or unreadable"}
	}
	s := Scored{}
	for _, c := range append(doc.Cases, doc.Top...) {
		s.Total, s.Passed = s.Total+1, s.Passed+b2i(c.Failure == nil && c.Error == nil && c.Skipped == nil)
	}
	if s.Total == 0 || (exit != 0 && s.Passed == s.Total) {
		s.Total++ // no test case, or the command failed for a reason no test reported
	}
	return s
}
