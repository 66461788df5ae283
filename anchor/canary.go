package anchor

import (
	"crypto/rand"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	mrand "math/rand/v2"
	"path"
	"regexp"
	"slices"
	"strings"
)

var buildLine = regexp.MustCompile(`(?m)^//go:build `)

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
