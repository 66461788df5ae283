// Package arch holds the architecture tests, checked on every test run so
// that layering rot fails: the import rules of docs/ARCHITECTURE.md (the
// anchor imports nothing of ours, the harness only the standard library, its
// editable files only harness/core, nothing imports cmd/ or the harness's
// model client and loop), the table of what each package may import
// (table_test.go), and the "Layout" section of docs/ARCHITECTURE.md, which
// must name every package (layout_test.go). It imports nothing of ours.
package arch

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

type pkg struct {
	ImportPath   string
	Standard     bool
	Imports      []string
	TestImports  []string // of the package's own _test.go files
	XTestImports []string // of its package x_test files
	Module       *struct{ Path string }
}

func list(t *testing.T, dir string, args ...string) []pkg {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func ours(path string) bool { return path == "ratchet" || strings.HasPrefix(path, "ratchet/") }

func TestImportRules(t *testing.T) {
	t.Parallel()
	pkgs := list(t, root(), "./...")
	if len(pkgs) < 3 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			switch {
			case strings.HasPrefix(imp, "ratchet/cmd/"):
				t.Errorf("%s imports %s: nothing imports cmd/", p.ImportPath, imp)
			case p.ImportPath == "ratchet/anchor" && ours(imp):
				t.Errorf("the anchor imports %s: it imports nothing of ours", imp)
			case imp == "ratchet/harness/model" || imp == "ratchet/harness/agent":
				t.Errorf("%s imports %s: front doors reach the model only through the harness binary", p.ImportPath, imp)
			}
		}
	}
}

func TestHarnessIsStandardLibraryOnly(t *testing.T) {
	t.Parallel()
	for _, p := range list(t, filepath.Join(root(), "harness"), "-deps", "./...") {
		if !p.Standard && !strings.HasPrefix(p.ImportPath, "ratchet/harness") {
			t.Errorf("the harness depends on %s: it must build offline from the standard library", p.ImportPath)
		}
	}
}

func TestEditableFilesCannotReachThePlumbing(t *testing.T) {
	t.Parallel()
	// The editable packages may use core and the standard library, never the
	// loop, the model client or the trace writer.
	for _, p := range list(t, filepath.Join(root(), "harness"), "./tools", "./middleware", "./memory") {
		for _, imp := range p.Imports {
			if ours(imp) && imp != "ratchet/harness/core" {
				t.Errorf("%s imports %s: editable code may import only ratchet/harness/core", p.ImportPath, imp)
			}
		}
	}
}
