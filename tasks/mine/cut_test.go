package mine

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

func TestCutFuncs(t *testing.T) {
	const src = `package color

import (
	"fmt"
	"strings"
	"testing"

	yaml "gopkg.in/yaml.v3"
	"example.com/go-thing/v2"
)

// TestOld passes on the parent.
func TestOld(t *testing.T) {
	if fmt.Sprint(1) != "1" {
		t.Fatal(thing.X)
	}
}

func helper() string { return strings.ToUpper("a") }

func TestNew(t *testing.T) {
	if helper() != "A" {
		t.Fatal(yaml.Y)
	}
}

func BenchmarkOld(b *testing.B) {}

func (s suite) TestMethod(t *testing.T) {}
`
	names := map[string]string{"example.com/go-thing/v2": "thing"}
	nameOf := func(imp string) string {
		if n, ok := names[imp]; ok {
			return n
		}
		return packageName(task{}, "example.com/m", imp)
	}
	cutOld := func(name string) bool { return name == "TestOld" || name == "TestMethod" || name == "BenchmarkOld" }
	got, left, err := cutFuncs([]byte(src), cutOld, nameOf)
	if err != nil {
		t.Fatal(err)
	}
	out := string(got)
	if left != 1 || strings.Contains(out, "TestOld") || strings.Contains(out, "passes on the parent") {
		t.Errorf("left %d:\n%s", left, out)
	}
	for _, keep := range []string{"func helper()", "func TestNew(", "func BenchmarkOld(", "TestMethod(", "\t_ \"fmt\"\n", "\t_ \"example.com/go-thing/v2\"\n", "\t\"strings\"\n", "\t\"testing\"\n", "yaml \"gopkg.in"} {
		if !strings.Contains(out, keep) {
			t.Errorf("%q is gone:\n%s", keep, out)
		}
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "", got, 0); err != nil || strings.Contains(out, "\n\n\n") {
		t.Errorf("%v:\n%s", err, out)
	}

	// Cutting every test leaves the helpers and the benchmark, which still
	// uses testing; with the benchmark gone too, testing is imported blank.
	got, left, err = cutFuncs([]byte(src), func(name string) bool { return name != "TestMethod" }, nameOf)
	if err != nil || left != 0 || !strings.Contains(string(got), "\t\"testing\"\n") || !strings.Contains(string(got), "func helper()") {
		t.Errorf("cut all: left %d, %v:\n%s", left, err, got)
	}
	noBench := strings.Replace(strings.Replace(src, "func BenchmarkOld(b *testing.B) {}\n", "", 1), "func (s suite) TestMethod(t *testing.T) {}\n", "", 1)
	got, left, err = cutFuncs([]byte(noBench), func(string) bool { return true }, nameOf)
	if err != nil || left != 0 || !strings.Contains(string(got), "\t_ \"testing\"\n") || !strings.Contains(string(got), "func helper()") {
		t.Errorf("cut all: left %d, %v:\n%s", left, err, got)
	}
	// A named import left unused is blank too; an import whose name
	// cannot be told is an error, never a file that does not compile.
	got, _, err = cutFuncs([]byte(src), func(name string) bool { return name == "TestNew" }, nameOf)
	if err != nil || !strings.Contains(string(got), "\t_ \"gopkg.in/yaml.v3\"\n") {
		t.Errorf("named import left unused: %v\n%s", err, got)
	}
	if _, _, err := cutFuncs([]byte(src), cutOld, func(string) string { return "wrong" }); err == nil || !strings.Contains(err.Error(), "cannot tell") {
		t.Errorf("unknown name: %v", err)
	}
	// Nothing to cut: the file comes back as it was.
	if got, left, err := cutFuncs([]byte(src), func(string) bool { return false }, nameOf); string(got) != src || left != 2 || err != nil {
		t.Errorf("nothing cut: left %d, %v", left, err)
	}
}

func TestPackageName(t *testing.T) {
	tk := task{
		repo:      map[string][]byte{"go.mod": []byte("module example.com/m\n"), "inner/a.go": []byte("package core\n"), "vendor/gopkg.in/yaml.v3/y.go": []byte("package yaml\n")},
		reference: map[string][]byte{"vendor/github.com/x/go-y/y.go": []byte("//go:build ignore\n\npackage main\n"), "vendor/github.com/x/go-y/z.go": []byte("package why\n")},
	}
	for imp, want := range map[string]string{
		"example.com/m/inner": "core", "gopkg.in/yaml.v3": "yaml", "github.com/x/go-y": "why", "net/http": "http",
		"example.com/none/go-thing/v2": "thing", "gopkg.in/check.v1": "check",
	} {
		if got := packageName(tk, "example.com/m", imp); got != want {
			t.Errorf("packageName(%q) = %q, want %q", imp, got, want)
		}
	}
}

func TestCutTests(t *testing.T) {
	const (
		pristine = "package calc\n\nimport \"testing\"\n\nfunc TestOld(t *testing.T) {}\n"
		helpers  = "package calc\n\nfunc helper() int { return 1 }\n"
		changed  = "package calc\n\nimport \"testing\"\n\nfunc TestKept(t *testing.T) {}\n\nfunc TestPasses(t *testing.T) {}\n"
	)
	tk := task{
		repo: map[string][]byte{"go.mod": []byte("module example.com/m\n"), "calc/old_test.go": []byte(pristine),
			"calc/helpers_test.go": []byte(helpers), "calc/new_test.go": []byte("package calc\n")},
		hidden: map[string][]byte{"calc/old_test.go": []byte(pristine), "calc/helpers_test.go": []byte(helpers),
			"calc/new_test.go": []byte(changed), "calc/testdata/in.txt": []byte("x"), "other/x_test.go": []byte(pristine)},
	}
	passed := map[string]bool{"example.com/m/calc TestOld": true, "example.com/m/calc TestPasses": true}
	hidden, err := cutTests(tk, func(key string) bool { return passed[key] })
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"calc/new_test.go":     "package calc\n\nimport \"testing\"\n\nfunc TestKept(t *testing.T) {}\n",
		"calc/testdata/in.txt": "x",
		"other/x_test.go":      pristine, // TestOld passed in calc, not here
	}
	if len(hidden) != len(want) {
		t.Errorf("hidden/ holds %d files, want %d: %v", len(hidden), len(want), hidden)
	}
	for name, body := range want {
		if string(hidden[name]) != body {
			t.Errorf("%s = %q, want %q", name, hidden[name], body)
		}
	}
}
