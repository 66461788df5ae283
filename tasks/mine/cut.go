package mine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"ratchet/tasks"
)

// Why a Go commit makes no task when its tests pass on the parent in part.
const reasonPartPass = "some of its tests already pass on the parent and could not be cut out"

// cutPassing makes a good Go task that a tree changing nothing scores
// above 0 on score 0 there. The anchor counts every top-level test of
// hidden/, and most of a fixing commit's tests (and all of the public ones)
// already pass on the parent. It runs the hidden tests on the parent's tree,
// cuts from hidden/ every top-level test that passed there (cutTests),
// drops the pristine public test files left with no test (repo/ holds the
// same file, which the anchor restores over the agent's anyway), and checks
// the task again, until the untouched tree scores 0/N: three rounds at
// most, for tests that did not report while a panicking test before them
// was there.
func cutPassing(ctx context.Context, t *task, dir, tmp string) (string, string) {
	for round := range 3 {
		passed, err := passingOnParent(ctx, *t)
		if err != nil {
			return reasonSandbox, err.Error()
		}
		if len(passed) == 0 {
			return reasonPartPass, "the untouched tree scores above 0, yet no hidden test passed on the parent in go test -json"
		}
		hidden, err := cutTests(*t, func(key string) bool { return passed[key] })
		if err != nil {
			return reasonPartPass, err.Error()
		}
		t.hidden = hidden
		os.RemoveAll(dir) // the task is written again below; a folder that will not go fails that write
		if err := t.write(dir); err != nil {
			return reasonInvalid, err.Error()
		}
		r := tasks.Check(ctx, dir, fmt.Sprintf("%s-cut%d", tmp, round))
		switch {
		case r.Problem != "":
			return reasonPartPass, "after cutting the tests that pass on the parent: " + r.Problem
		case strings.HasPrefix(r.Untouched, "0/"):
			return "", ""
		}
	}
	return reasonPartPass, "tests still pass on the parent after three rounds of cutting"
}

// cutPassingPy makes a Python task fail-to-pass, as cutPassing does a Go
// one: it runs the hidden tests on the parent's tree in the sandbox and
// renames every test function all of whose cases passed there so pytest no
// longer collects it (test_x becomes passes_on_parent_test_x, its body kept
// for the reader), then checks the task again: the untouched tree must
// score 0 on what is left.
func cutPassingPy(ctx context.Context, t *task, dir, tmp string) (string, string) {
	files := maps.Clone(t.repo)
	maps.Copy(files, t.hidden)
	_, out, _, err := runBox(ctx, files, t.test+" -rA", 5*time.Minute)
	if err != nil {
		return reasonSandbox, err.Error()
	}
	hidden, cut := setAsidePy(t.hidden, passedWhole(pytestVerdicts(out)), "passes_on_parent_")
	if len(cut) == 0 {
		return reasonPartPass, "the untouched tree scores above 0, yet no hidden test function passed whole on the parent"
	}
	t.hidden = hidden
	os.RemoveAll(dir) // the task is written again below; a folder that will not go fails that write
	if err := t.write(dir); err != nil {
		return reasonInvalid, err.Error()
	}
	r := tasks.Check(ctx, dir, tmp+"-cut")
	switch {
	case r.Problem != "":
		return reasonPartPass, "after setting aside the tests that pass on the parent: " + r.Problem
	case !strings.HasPrefix(r.Untouched, "0/"):
		return reasonPartPass, "tests still pass on the parent after setting aside those that passed whole"
	}
	return "", ""
}

// passedWhole is the test functions, keyed "path::test_x", all of whose
// cases passed, from pytestVerdicts' two sets.
func passedWhole(passed, failed map[string]bool) []string {
	var keys []string
	for _, key := range slices.Sorted(maps.Keys(passed)) {
		if !failed[key] {
			keys = append(keys, key)
		}
	}
	return keys
}

// setAsidePy renames the def of each test function keys name ("path::test_x")
// to prefix+test_x, so pytest no longer collects it and its body stays for
// the reader. It returns the files changed so, a copy, and the keys renamed.
func setAsidePy(files map[string][]byte, keys []string, prefix string) (map[string][]byte, []string) {
	files = maps.Clone(files)
	var done []string
	for _, key := range keys {
		file, fn, _ := strings.Cut(key, "::")
		if files[file] == nil {
			continue
		}
		def := regexp.MustCompile(`(?m)^(\s*(?:async\s+)?def )` + regexp.QuoteMeta(fn) + `\(`)
		if renamed := def.ReplaceAll(files[file], []byte("${1}"+prefix+fn+"(")); !bytes.Equal(renamed, files[file]) {
			files[file], done = renamed, append(done, key)
		}
	}
	return files, done
}

// pytestVerdicts reads pytest -rA's summary lines ("PASSED path::Class::
// test_x[case]") into the test functions, keyed "path::test_x", of which a
// case passed and of which one failed or erred.
func pytestVerdicts(out []byte) (passed, failed map[string]bool) {
	passed, failed = map[string]bool{}, map[string]bool{}
	for line := range strings.SplitSeq(string(out), "\n") {
		verdict, id, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok || verdict != "PASSED" && verdict != "FAILED" && verdict != "ERROR" {
			continue
		}
		id, _, _ = strings.Cut(id, " ")
		id, _, _ = strings.Cut(id, "[")
		file, rest, ok := strings.Cut(id, "::")
		if !ok {
			continue
		}
		fn := rest // a function, or Class::method
		if i := strings.LastIndex(rest, "::"); i >= 0 {
			fn = rest[i+len("::"):]
		}
		key := file + "::" + fn
		if verdict == "PASSED" {
			passed[key] = true
		} else {
			failed[key] = true
		}
	}
	return passed, failed
}

// passingOnParent runs t's test command with -json on the parent's tree
// with hidden/ laid over it, in the sandbox, and returns the top-level tests
// that passed, keyed "import/path TestName" as go test reports them.
func passingOnParent(ctx context.Context, t task) (map[string]bool, error) {
	files := maps.Clone(t.repo)
	maps.Copy(files, t.hidden)
	command := strings.Replace(t.test, "go test ", "go test -json ", 1)
	_, out, _, err := runBox(ctx, files, command, 5*time.Minute)
	if err != nil {
		return nil, err
	}
	return passedTests(out), nil
}

// passedTests reads go test -json output into the top-level tests that
// passed, every time they ran, keyed "import/path TestName".
func passedTests(out []byte) map[string]bool {
	passed := map[string]bool{}
	for line := range bytes.SplitSeq(out, []byte("\n")) {
		var e struct{ Action, Package, Test string }
		if json.Unmarshal(line, &e) != nil || e.Test == "" || strings.Contains(e.Test, "/") {
			continue
		}
		key := e.Package + " " + e.Test
		switch e.Action {
		case "pass":
			passed[key] = true
		case "fail", "skip":
			delete(passed, key) // run twice (-count), it must pass every time
		}
	}
	return passed
}

// failedTests reads go test -json output into the top-level tests that
// failed, keyed as passedTests keys them. A test the run never reached (an
// earlier test's panic ended the binary) is not among them.
func failedTests(out []byte) map[string]bool {
	failed := map[string]bool{}
	for line := range bytes.SplitSeq(out, []byte("\n")) {
		var e struct{ Action, Package, Test string }
		if json.Unmarshal(line, &e) == nil && e.Action == "fail" && e.Test != "" && !strings.Contains(e.Test, "/") {
			failed[e.Package+" "+e.Test] = true
		}
	}
	return failed
}

// modulePath is the module a go.mod names, or "." without one.
func modulePath(gomod []byte) string {
	if m := moduleLine.FindSubmatch(gomod); m != nil {
		return string(m[1])
	}
	return "."
}

// cutTests returns t's hidden/ without the top-level Go tests that cut
// selects by their key ("import/path TestName"). A pristine copy of a public
// test file left with no test goes; every other file keeps all but the cut
// tests.
func cutTests(t task, cut func(key string) bool) (map[string][]byte, error) {
	mod := modulePath(t.repo["go.mod"])
	hidden := maps.Clone(t.hidden)
	for _, name := range slices.Sorted(maps.Keys(t.hidden)) {
		if !strings.HasSuffix(name, "_test.go") {
			continue
		}
		pkg := path.Join(mod, path.Dir(name))
		b, left, err := cutFuncs(t.hidden[name], func(test string) bool { return cut(pkg + " " + test) },
			func(imp string) string { return packageName(t, mod, imp) })
		if err != nil {
			return nil, fmt.Errorf("hidden/%s: %w", name, err)
		}
		if left == 0 && bytes.Equal(t.hidden[name], t.repo[name]) {
			delete(hidden, name)
			continue
		}
		hidden[name] = b
	}
	return hidden, nil
}

// cutFuncs removes from the Go file src the top-level test functions
// (func TestX(t *testing.T), the ones the anchor counts) that cut selects,
// with their doc comments, and returns the file and how many tests it has
// left. An import that only the removed code used becomes a blank import
// (import _ "path"), so the file still compiles and the package still runs
// its init; nameOf gives the name an unnamed import is used by.
func cutFuncs(src []byte, cut func(string) bool, nameOf func(string) string) ([]byte, int, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, 0, err
	}
	var spans [][2]int // byte ranges to remove, in order
	left := 0
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || !isTestFunc(fn) {
			continue
		}
		if !cut(fn.Name.Name) {
			left++
			continue
		}
		start, end := fset.Position(fn.Pos()).Offset, fset.Position(fn.End()).Offset
		if fn.Doc != nil {
			start = fset.Position(fn.Doc.Pos()).Offset
		}
		if end < len(src) && src[end] == '\n' {
			end++
		}
		if start >= 2 && src[start-1] == '\n' && src[start-2] == '\n' {
			start-- // and the blank line before it
		}
		spans = append(spans, [2]int{start, end})
	}
	if len(spans) == 0 {
		return src, left, nil
	}
	var out []byte
	at := 0
	for _, s := range spans {
		out = append(out, src[at:s[0]]...)
		at = s[1]
	}
	out = append(out, src[at:]...)
	return blankUnused(src, out, nameOf, left)
}

// blankUnused turns the imports of after that before used and after no
// longer does into blank imports. An import whose name cannot be told
// (used under a name neither before nor after) is an error.
func blankUnused(before, after []byte, nameOf func(string) string, left int) ([]byte, int, error) {
	usedBefore, err := qualifiers(before)
	if err != nil {
		return nil, 0, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", after, parser.SkipObjectResolution)
	if err != nil {
		return nil, 0, fmt.Errorf("cut: %w", err)
	}
	usedAfter, _ := qualifiers(after)
	var edits [][2]int // byte ranges of after to replace: an import's name, or an empty one before its path
	for _, spec := range f.Imports {
		imp, _ := strconv.Unquote(spec.Path.Value)
		name := ""
		switch {
		case spec.Name != nil:
			name = spec.Name.Name
		case imp == "C":
			continue
		default:
			name = nameOf(imp)
		}
		switch {
		case name == "_" || name == "." || usedAfter[name]:
		case !usedBefore[name]:
			return nil, 0, fmt.Errorf("cannot tell the name the import %q is used by", imp)
		case spec.Name != nil:
			edits = append(edits, [2]int{fset.Position(spec.Name.Pos()).Offset, fset.Position(spec.Name.End()).Offset})
		default:
			off := fset.Position(spec.Path.Pos()).Offset
			edits = append(edits, [2]int{off, off})
		}
	}
	var out []byte
	at := 0
	for _, e := range edits {
		out = append(out, after[at:e[0]]...)
		if e[0] == e[1] {
			out = append(out, "_ "...)
		} else {
			out = append(out, '_')
		}
		at = e[1]
	}
	return append(out, after[at:]...), left, nil
}

// qualifiers parses a Go file and returns the names it uses as X in X.Sel,
// among them every import it uses.
func qualifiers(src []byte) (map[string]bool, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok {
				used[x.Name] = true
			}
		}
		return true
	})
	return used, nil
}

// isTestFunc tells a function go test runs as a test, and the anchor
// counts: func TestX(t *testing.T), no receiver.
func isTestFunc(fn *ast.FuncDecl) bool {
	if fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") || len(fn.Type.Params.List) != 1 {
		return false
	}
	star, ok := fn.Type.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "T"
}

// packageName is the name the package at import path imp declares: read
// from its files in the task (the module's own, or vendored), else from
// the Go installation's source, else guessed from the path's last part.
func packageName(t task, mod, imp string) string {
	var dirs []string
	if rest, ok := strings.CutPrefix(imp, mod+"/"); ok {
		dirs = append(dirs, rest)
	}
	dirs = append(dirs, "vendor/"+imp)
	for _, files := range []map[string][]byte{t.repo, t.reference} {
		for _, d := range dirs {
			for _, name := range slices.Sorted(maps.Keys(files)) {
				if path.Dir(name) == d && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
					if n := clauseName(files[name]); n != "" && n != "main" {
						return n
					}
				}
			}
		}
	}
	if root := goRoot(); root != "" {
		entries, _ := os.ReadDir(filepath.Join(root, "src", imp))
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
				if b, err := os.ReadFile(filepath.Join(root, "src", imp, e.Name())); err == nil && clauseName(b) != "" {
					return clauseName(b)
				}
			}
		}
	}
	last := path.Base(imp)
	if strings.HasPrefix(last, "v") && strings.Trim(last[1:], "0123456789") == "" && path.Dir(imp) != "." {
		last = path.Base(path.Dir(imp)) // example.com/x/v2 is package x
	}
	last, _, _ = strings.Cut(last, ".") // gopkg.in/yaml.v3 is package yaml
	last = strings.TrimPrefix(strings.TrimSuffix(last, "-go"), "go-")
	return strings.ReplaceAll(last, "-", "_")
}

// clauseName is the package name a Go file declares, or "" when it
// cannot be read or is kept out of builds by a build constraint of ignore.
func clauseName(src []byte) string {
	if bytes.Contains(src, []byte("//go:build ignore")) {
		return ""
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.PackageClauseOnly)
	if err != nil {
		return ""
	}
	return f.Name.Name
}

// goRoot is the Go installation the sandbox's go test uses, which is the
// host's.
var goRoot = sync.OnceValue(func() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})
