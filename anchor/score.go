package anchor

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"maps"
	mrand "math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Scored is what scoring found. Outcome is "" for a clean scoring, else
// forged (the tree tried to fake a result), scoring (the scoring run went
// wrong, the tree's fault) or infra (the sandbox could not start).
type Scored struct {
	Passed, Total  int
	Outcome, Error string
	Report         *Report // nil when nothing was counted
}

// Report is what a scoring run saw beyond the task's own files: from it and
// the task, count re-derives the score (anchor verify).
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
		return Scored{Total: 1, Outcome: "infra", Error: "read the task: " + err.Error()}
	}
	hidden, err := ReadTree(filepath.Join(t.Dir, "hidden"), true)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return Scored{Total: 1, Outcome: "infra", Error: "read the task: " + err.Error()}
	}
	if reason := screen(agent, repo); reason != "" {
		return Scored{Total: 1, Outcome: "forged", Error: "forged: " + reason}
	}
	files := map[string][]byte{}
	for name, b := range agent {
		if !isTestFile(name) {
			files[name] = b
		}
	}
	for name, b := range repo {
		if isTestFile(name) {
			files[name] = b
		}
	}
	maps.Copy(files, hidden)
	delete(files, path.Clean(filepath.ToSlash(t.JUnit))) // a report left behind is not a result
	canaries := map[string]bool{}
	if t.goTest() {
		canaries = plantCanaries(files, hidden)
	}
	if t.pytest() { // scored as a JUnit task whose command and report the anchor sets (pytest.go)
		t.Test, t.JUnit, canaries = pytestCommand(files, hidden)
	}
	warm, err := WarmCache()
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return Scored{Total: 1, Outcome: "infra", Error: "prepare scoring: " + err.Error()}
	}
	// Its own bounded space, twice a run's, holding the sandboxes' /work and
	// their scratch, so an agent that filled its own cannot starve scoring.
	// A tree that cannot be written (a folder where a test file goes) is the
	// tree's fault, never the machine's.
	defer bound(dir, 2*runDisk)()
	work := filepath.Join(dir, "work")
	if err := WriteTree(filepath.Join(work, "task"), files); err != nil {
		return Scored{Total: 1, Outcome: "scoring", Error: "the final tree cannot be scored: " + err.Error()}
	}
	box := Box{Work: work, Cache: warm, Dir: "/work/task", Memory: memory}
	box.Timeout = max(t.Timeout, 5*time.Minute)
	script, why := t.ScoreCommand(), ""
	if t.goTest() {
		box.Opt = filepath.Join(dir, "opt") // scoring's test binaries, test2json and hider
		if script, why, err = compileTests(ctx, t, files, hidden, box); err != nil {
			return Scored{Total: 1, Outcome: "infra", Error: "scoring: " + errors.Join(err, ctx.Err()).Error()}
		}
	}
	box.Args, box.Output = []string{"sh", "-c", script}, 32<<20 // every event of go test -json must be seen
	code, out, timedOut, err := box.Run(ctx)
	switch {
	case err != nil || ctx.Err() != nil: // a scoring cut short by a cancelled eval is no score
		return Scored{Total: 1, Outcome: "infra", Error: "scoring: " + errors.Join(err, ctx.Err()).Error()}
	case timedOut:
		return Scored{Total: 1, Outcome: "scoring", Error: "scoring timed out"}
	}
	var report []byte
	if t.JUnit != "" {
		if f, err := openData(filepath.Join(work, "task"), t.JUnit); err == nil {
			report, _ = io.ReadAll(io.LimitReader(f, 16<<20)) // a longer report is cut, and fails to parse
			f.Close()
		}
	}
	rep := &Report{Exit: code, Out: out, JUnit: report, Mods: map[string][]byte{}, Canaries: canaries}
	for name, b := range files {
		if path.Base(name) == "go.mod" {
			rep.Mods[name] = b
		}
	}
	s := count(t, out, code, report, hidden, rep.Mods, canaries, cmp.Or(why, firstLine(out, "output")))
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
		f.Close()
		return nil, err
	}
	return f, nil
}

// compileTests builds the test binaries of the packages with hidden tests,
// in box's tree, in a sandbox where no code of the agent runs: every go test
// of the command starts each binary through /opt/score/hide, which there
// copies it out, with its folder, environment and arguments, instead of
// running it. It then deletes the hidden test files from the tree, leaves
// the binaries in box.Opt with test2json (built from the toolchain's own
// source), and returns the script that scoring runs: each binary run
// directly in its folder, with its environment and arguments, its output
// made into go test's JSON events by test2json. No go test builds a package
// again, so the code under test may use what its test files declare, as
// under go test. It returns too the first line of the build's output that
// says why a package did not build. A package whose tests do not build has
// no binary: its hidden tests do not report, and fail. A task without
// hidden Go tests has nothing to hide: its command runs as written.
func compileTests(ctx context.Context, t Task, files, hidden map[string][]byte, box Box) (script, why string,
	err error) {
	collect := "#!/bin/sh\ncase \"$PWD\" in\n"
	var tests []string
	for name := range hidden {
		if strings.HasSuffix(name, "_test.go") {
			tests = append(tests, name)
			collect += quote(path.Join("/work/task", path.Dir(name))) + ") ;;\n"
		}
	}
	bins := filepath.Join(box.Work, "bins")
	if len(tests) == 0 {
		hide := map[string][]byte{"hide": []byte("#!/bin/sh\nexec \"$@\"\n")}
		return t.ScoreCommand(), "", WriteTree(box.Opt, hide)
	}
	// Each start takes the next free number (its .env file, the folder and
	// the environment, is created atomically), so a package tested twice, or
	// by a later go test, keeps both.
	collect += "*) exit 0 ;;\nesac\ni=0\n" +
		"until (set -C; { printf '%s\\0' \"$PWD\"; env -0; } >/work/bins/$i.env) 2>/dev/null; do\n" +
		"\t[ -e /work/bins/$i.env ] || exit 1\n\ti=$((i+1))\ndone\n" +
		"cp \"$1\" /work/bins/$i.test && shift && printf '%s\\0' \"$@\" >/work/bins/$i.args\n"
	first := box // the compiling sandbox: the same tree, and the hider that copies
	first.Opt, first.Args = filepath.Join(filepath.Dir(box.Work), "compile"), []string{"sh", "-c",
		"install -m 755 \"$(cd / && go tool -n test2json)\" /work/bins/test2json; " + t.ScoreCommand()}
	err = errors.Join(os.Mkdir(bins, 0o755), WriteTree(first.Opt, map[string][]byte{"hide": []byte(collect)}))
	if err != nil {
		return "", "", err
	}
	code, out, _, err := first.Run(ctx)
	if err != nil || ctx.Err() != nil {
		return "", "", errors.Join(err, ctx.Err())
	}
	for _, name := range tests { // no test source is on disk while the agent's code runs
		err = errors.Join(err, os.RemoveAll(filepath.Join(box.Work, "task", name)))
	}
	_, built := os.Stat(filepath.Join(bins, "test2json")) // without the toolchain's own, no output is read
	if err := errors.Join(err, built, os.Rename(bins, box.Opt)); err != nil {
		return "", "", err
	}
	script = fmt.Sprintf("[ %d = 0 ]; s=$?\n", code) // a package that did not build fails the command
	for i := 0; ; i++ {
		at := filepath.Join(box.Opt, strconv.Itoa(i))
		env, err1 := os.ReadFile(at + ".env")
		args, err2 := os.ReadFile(at + ".args")
		if errors.Join(err1, err2) != nil {
			break // the last binary (or one whose copy failed, in a full sandbox)
		}
		folder, env, _ := bytes.Cut(env, []byte{0})
		rel, _ := filepath.Rel("/work/task", string(folder))
		script += fmt.Sprintf("(cd %s && exec env -i %s /opt/score/test2json -p %s /opt/score/%d.test %s) || s=1\n",
			quote(string(folder)), words(env), quote(goPackage(files, rel)), i, words(args))
	}
	return script + "exit $s\n", firstLine(out, "build-output"), nil
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

// quote makes s one word of sh.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// isTestFile tells the files that belong to the task's tests, never to the
// agent: Go and Python test files.
func isTestFile(name string) bool {
	base := path.Base(name)
	return strings.HasSuffix(base, "_test.go") || strings.HasSuffix(base, "_test.py") ||
		(strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py")) || base == "conftest.py"
}

var buildLine = regexp.MustCompile(`(?m)^//go:build `)
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

// plantCanaries adds to every folder with hidden Go tests a test that must
// fail, named like the tests beside it, and returns the keys ("package
// Test") it planted, one a folder. It goes into one of their files, before a
// test drawn at random or after the last, with the body of another drawn at
// random, so that it calls the code under test as they do. First it fails
// in a way the compiler cannot know (it asks its own name); then a panic of
// the copied body is recovered, lest it stop the tests after it.
func plantCanaries(files, hidden map[string][]byte) map[string]bool {
	canaries, planted := map[string]bool{}, map[string]bool{}
	// A file without a build constraint first: a file the command's tags
	// leave out of the build would take its canary with it (a false forgery).
	names := slices.Sorted(maps.Keys(hidden))
	constrained := func(name string) int { return b2i(buildLine.Match(hidden[name])) }
	slices.SortStableFunc(names, func(x, y string) int { return constrained(x) - constrained(y) })
	for _, name := range names {
		src := hidden[name]
		if !strings.HasSuffix(name, "_test.go") || !testFunc.Match(src) || planted[path.Dir(name)] {
			continue
		}
		planted[path.Dir(name)] = true
		test := canaryName(files, path.Dir(name))
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
		off := func(p token.Pos) int { return fset.Position(p).Offset }
		at, body, n := len(src), []byte(nil), 0
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || err != nil || fn.Body == nil || !tTest.Match(src[off(fn.Pos()):]) {
				continue
			}
			n++
			if mrand.IntN(n+1) == 0 { // each of the n+1 places, before one of n tests or after them, alike
				at = off(fn.Pos())
			}
			if mrand.IntN(n) == 0 {
				body = src[off(fn.Body.Lbrace)+1 : off(fn.Body.Rbrace)]
			}
		}
		canary := fmt.Appendf(nil, "func %s(t *testing.T) {\n\tif got := len(t.Name()) * %d; "+
			"got != len(t.Name())*%[2]d+1 {\n\t\tt.Errorf(\"got %%d, want %%d\", got, got+1)\n\t}\n"+
			"\tdefer func() { recover() }()\n%s}\n\n", test, mrand.IntN(90)+10, body)
		files[name] = slices.Concat(src[:at:at], canary, src[at:])
		canaries[goPackage(files, path.Dir(name))+" "+test] = true
	}
	return canaries
}

// tTest is how a test whose body a canary may copy begins.
var tTest = regexp.MustCompile(`^func Test\w*\(t \*testing\.T\)`)
var camelWord = regexp.MustCompile(`[A-Z][a-z0-9]*`)
var funcName = regexp.MustCompile(`(?m)^func (\w+)`)

// canaryName names a canary like the tests beside it in dir: a few words of
// their names, in a new order, that no function there has, so that a forger
// reading the names in its binary cannot tell it apart. Without such words
// it is random letters.
func canaryName(files map[string][]byte, dir string) string {
	var words []string
	taken := map[string]bool{}
	for name, b := range files {
		if path.Dir(name) != dir {
			continue
		}
		for _, m := range funcName.FindAllSubmatch(b, -1) {
			taken[string(m[1])] = true
		}
		for _, m := range testFunc.FindAllSubmatch(b, -1) {
			words = append(words, camelWord.FindAllString(string(m[1][len("Test"):]), -1)...)
		}
	}
	for try := 0; try < 50 && len(words) > 1; try++ {
		name := "Test" + words[mrand.IntN(len(words))] + words[mrand.IntN(len(words))]
		if !taken[name] {
			return name
		}
	}
	return "Test" + rand.Text()[:1] + strings.ToLower(rand.Text()[:9])
}

// count counts passed and total hidden tests from the scoring run: go test
// -json events keyed by package and test, a JUnit XML report, or the exit
// status. A hidden test that does not report failed; tests the agent added
// do not count either way. A canary that did not fail marks the run forged.
func count(t Task, out []byte, exit int, report []byte, hidden, files map[string][]byte,
	canaries map[string]bool, why string) Scored {
	switch {
	case t.JUnit == pytestReport:
		return pytestCount(report, canaries)
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
			return Scored{Total: max(s.Total, 1), Outcome: "forged",
				Error: fmt.Sprintf("forged: the canary %s, which must fail, reported %q", key, action)}
		}
	}
	if s.Total > 0 && !heard { // why nothing counted: a build failure is named by its first compiler line
		s.Error = "no hidden test reported: " + cmp.Or(why, "the command ran none of their packages' tests")
	}
	if s.Total == 0 { // no hidden Go tests: the exit status decides
		s.Total = 1
		if exit == 0 {
			s.Passed = 1
		}
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
		s.Total++
		if c.Failure == nil && c.Error == nil && c.Skipped == nil {
			s.Passed++
		}
	}
	if s.Total == 0 || (exit != 0 && s.Passed == s.Total) {
		s.Total++ // no test case, or the command failed for a reason no test reported
	}
	return s
}

// test2json reads framing only after this byte
var framing = regexp.MustCompile(`\x16|\\x16|\\026|\\u0016|\\U00000016`)
var startupExit = regexp.MustCompile(
	`\b(os\.Exit|runtime\.Goexit|fmt\.Print\w*|syscall\.\w+|unix\.\w+|print|println)\(`)
var embedLine = regexp.MustCompile(`(?m)^[ \t]*//go:embed\s.*$`)
var startupWrite = regexp.MustCompile(`\bos\.(Stdout|Stderr|NewFile)\b`)

// screen looks at what the agent changed for the known shapes of a forged
// result: test2json's framing byte, a go:embed the task's own file lacks,
// the testing package outside a test, and code run at start-up (func init,
// package variables) that calls exit or output functions. It returns the
// reason, or "". Naming os.Stdout is suspect only in init: package loggers
// name it too.
func screen(agent, repo map[string][]byte) string {
	for _, name := range slices.Sorted(maps.Keys(agent)) {
		b := agent[name]
		if bytes.Equal(b, repo[name]) || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if m := framing.Find(b); m != nil {
			return fmt.Sprintf("%s holds test framing %q", name, m)
		}
		for _, line := range embedLine.FindAll(b, -1) {
			if !bytes.Contains(repo[name], line) { // the tests would be in the binary
				return fmt.Sprintf("%s embeds files the task did not: %q", name, bytes.TrimSpace(line))
			}
		}
		f, err := parser.ParseFile(token.NewFileSet(), "", b, parser.SkipObjectResolution)
		if err != nil {
			continue // it will not build either
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "testing" {
				return name + " imports testing outside a test file"
			}
		}
		for _, d := range f.Decls {
			text := b[d.Pos()-1 : d.End()-1]
			fn, isFunc := d.(*ast.FuncDecl)
			gen, isGen := d.(*ast.GenDecl)
			isInit := isFunc && fn.Name.Name == "init" && fn.Recv == nil
			if m := startupExit.Find(text); m != nil && (isInit || isGen && gen.Tok == token.VAR) {
				return fmt.Sprintf("%s runs %s at start-up", name, m)
			}
			if m := startupWrite.Find(text); m != nil && isInit {
				return fmt.Sprintf("%s writes to %s in init", name, m)
			}
		}
	}
	return ""
}
