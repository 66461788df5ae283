package anchor

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// indexRow is one row of anchor/README.md's defence index.
var indexRow = regexp.MustCompile("^\\| *([^|]+?) *\\| *`([a-z0-9_/]+\\.go)` *\\| *`([A-Za-z0-9_.]+)` *\\| *([^|]+?) *\\|$")

// TestDefenceIndex holds anchor/README.md to the code: every row names a
// file of the anchor, a function declared in it and tests that exist (a
// subtest TestAttacks/<name> being an archive TestAttacks plays), so the
// index a reviewer audits from cannot drift from what it indexes.
func TestDefenceIndex(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]bool{}
	decls := map[string]map[string]bool{} // file -> declared functions and methods
	files, _ := filepath.Glob("*.go")
	cmd, _ := filepath.Glob("../cmd/anchor/*.go")
	// ratchet verify re-derives the anchor's decisions from outside it: its
	// tests show what the anchor keeps for it.
	audit, _ := filepath.Glob("../audit/*_test.go")
	fset := token.NewFileSet()
	for _, f := range slices.Concat(files, cmd, audit) {
		parsed, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(f, "../")
		if !strings.HasPrefix(name, "cmd/") && !strings.HasPrefix(name, "audit/") {
			name = "anchor/" + name
		}
		decls[name] = map[string]bool{}
		for _, d := range parsed.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok {
				decls[name][fn.Name.Name] = true
				if strings.HasSuffix(f, "_test.go") && strings.HasPrefix(fn.Name.Name, "Test") {
					tests[fn.Name.Name] = true
				}
			}
		}
	}
	rows := 0
	for _, line := range strings.Split(string(readme), "\n") {
		m := indexRow.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		rows++
		file, fn := m[2], m[3]
		if decls[file] == nil || strings.HasSuffix(file, "_test.go") {
			t.Errorf("%s: %s is not a source file of the anchor", m[1], file)
		} else if !decls[file][fn] {
			t.Errorf("%s: %s declares no function %s", m[1], file, fn)
		}
		named := regexp.MustCompile("`(Test[A-Za-z0-9_]+)(/[a-z0-9-]+)?`").FindAllStringSubmatch(m[4], -1)
		if len(named) == 0 {
			t.Errorf("%s: no test named", m[1])
		}
		for _, n := range named {
			if !tests[n[1]] {
				t.Errorf("%s: no test %s in anchor/", m[1], n[1])
			}
			// TestAttacks names a subtest after each archive it plays.
			if n[2] != "" && (n[1] != "TestAttacks" || !playedByTable(n[2][1:])) {
				t.Errorf("%s: no subtest %s%s: subtests named here are TestAttacks' archives", m[1], n[1], n[2])
			}
		}
	}
	if rows < 20 {
		t.Errorf("the index has %d rows; want every invariant and every row of the threat model", rows)
	}
}

// playedByTable reports whether testdata/attacks holds an archive of that
// name that TestAttacks plays (not one a test of its own plays).
func playedByTable(name string) bool {
	ar, err := txtar.ParseFile(filepath.Join(attacksDir, name+".txtar"))
	if err != nil {
		return false
	}
	a, err := parseAttack(name, ar)
	return err == nil && a.runBy == ""
}

// TestTracesServeTrainOnly: the evolver reads traces through anchor traces,
// and that command refuses holdout and sealed before it opens anything.
func TestTracesServeTrainOnly(t *testing.T) {
	dir := t.TempDir()
	for _, split := range []string{"holdout", "sealed"} {
		out, err := anchorCmd(t, dir, os.Getenv("PATH"), "traces", "--split", split)
		if err == nil || !strings.Contains(out, "--split train only") {
			t.Errorf("traces --split %q: %v\n%s", split, err, out)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("a refused traces left %v on disk", entries)
	}
}
