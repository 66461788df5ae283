package arch

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// layers are the module's import layers, bottom first. A package may import
// packages of its own layer or of a lower one, never of a higher one; which
// of them exactly is its row in table. docs/ARCHITECTURE.md, "Layout", holds
// the same layers and rows, and TestLayoutSectionMatchesTheTree keeps the two
// equal.
var layers = []struct {
	name     string
	packages []string
}{
	// The anchor imports nothing of ours; the harness is its own module and
	// imports only the standard library (TestHarnessIsStandardLibraryOnly).
	// Neither imports the other: the anchor builds and runs the harness as a
	// program, and only its tests use the harness's fake model.
	{"foundations", []string{"anchor", "harness"}},
	{"internal", []string{"internal/arch", "internal/datafile", "internal/harnesses", "internal/ledgerdb",
		"internal/scripted", "internal/show", "internal/testtree"}},
	{"programs", []string{"plan", "tasks", "tasks/exercism", "tasks/mine", "evolve", "fleet", "audit"}},
	{"doors", []string{"door", "door/doortest", "door/editors", "door/mcpdoor", "door/serve", "door/ui"}},
	{"commands", []string{"cmd/anchor", "cmd/ratchet"}},
}

// row is what one package may import of ours, by path inside the module:
// code for its own files, tests for its test files on top of code.
type row struct{ code, tests []string }

// table has a row for every package of the module. A new package fails
// TestEveryImportIsInTheTable until it is placed in a layer and given a row.
var table = map[string]row{
	"anchor":     {tests: []string{"harness/fakemodel"}},
	"cmd/anchor": {code: []string{"anchor"}},
	"cmd/ratchet": {
		code: []string{"anchor", "audit", "door", "door/editors", "door/mcpdoor", "door/serve", "door/ui", "evolve", "fleet",
			"internal/harnesses", "internal/ledgerdb", "internal/scripted", "internal/show", "plan", "tasks",
			"tasks/exercism", "tasks/mine"},
		tests: []string{"door/doortest", "harness/fakemodel", "internal/testtree"},
	},

	"door": {
		code:  []string{"anchor", "harness/trace", "internal/datafile", "internal/harnesses", "internal/show"},
		tests: []string{"door/doortest", "harness/fakemodel"},
	},
	"door/doortest": {code: []string{"door", "harness/fakemodel", "internal/testtree"}},
	"door/editors":  {},
	"door/mcpdoor": {
		code:  []string{"door", "door/serve", "internal/ledgerdb", "internal/show"},
		tests: []string{"door/doortest", "harness/fakemodel", "internal/harnesses"},
	},
	"door/serve": {code: []string{"door", "internal/show"}, tests: []string{"door/doortest", "harness/fakemodel"}},
	"door/ui": {
		code:  []string{"internal/datafile", "internal/ledgerdb", "internal/show"},
		tests: []string{"harness/fakemodel", "harness/trace", "internal/testtree"},
	},

	"evolve": {
		code: []string{"anchor", "harness/trace", "internal/ledgerdb", "internal/show", "plan"},
		tests: []string{"harness/agent", "harness/core", "harness/fakemodel", "harness/tools", "internal/scripted",
			"internal/testtree"},
	},
	"audit":          {code: []string{"anchor", "internal/ledgerdb", "internal/show"}, tests: []string{"harness/fakemodel", "internal/testtree"}},
	"fleet":          {code: []string{"anchor", "internal/show"}, tests: []string{"harness/fakemodel", "internal/testtree"}},
	"plan":           {code: []string{"anchor", "internal/ledgerdb"}},
	"tasks":          {code: []string{"anchor", "plan"}, tests: []string{"internal/testtree"}},
	"tasks/exercism": {code: []string{"anchor", "tasks"}},
	"tasks/mine":     {code: []string{"anchor", "tasks"}, tests: []string{"internal/testtree"}},

	"internal/arch":      {},
	"internal/datafile":  {},
	"internal/harnesses": {code: []string{"anchor", "internal/ledgerdb"}, tests: []string{"harness/core", "harness/tools"}},
	"internal/ledgerdb":  {code: []string{"internal/show"}},
	"internal/scripted": {
		code:  []string{"anchor", "harness/fakemodel"},
		tests: []string{"harness/agent", "harness/memory", "harness/model", "harness/trace"},
	},
	"internal/show":     {code: []string{"anchor"}},
	"internal/testtree": {},
}

// layerOf is the index in layers of the package at path (inside the
// module), or -1. Every package of the harness module is in its layer.
func layerOf(path string) int {
	if path == "harness" || strings.HasPrefix(path, "harness/") {
		path = "harness"
	}
	for i, l := range layers {
		if slices.Contains(l.packages, path) {
			return i
		}
	}
	return -1
}

// inModule is path inside the module: ratchet/door/serve is door/serve.
func inModule(path string) string { return strings.TrimPrefix(path, "ratchet/") }

// checkTable lists what is wrong with the table itself: a row of a package
// in no layer, or one that lets a package import upward (a higher layer),
// itself, or a package in no layer.
func checkTable(table map[string]row) []string {
	var bad []string
	for name, r := range table {
		own := layerOf(name)
		if own < 0 {
			bad = append(bad, fmt.Sprintf("%s has a row but no layer", name))
			continue
		}
		for _, imp := range slices.Concat(r.code, r.tests) {
			switch l := layerOf(imp); {
			case imp == name:
				bad = append(bad, fmt.Sprintf("%s's row names itself", name))
			case l < 0:
				bad = append(bad, fmt.Sprintf("%s may import %s, which is in no layer", name, imp))
			case l > own:
				bad = append(bad, fmt.Sprintf("%s (layer %s) may import %s (layer %s): an arrow up",
					name, layers[own].name, imp, layers[l].name))
			}
		}
	}
	slices.Sort(bad)
	return bad
}

// checkImports lists the packages of pkgs that the table has no row for,
// the imports of ours their rows do not allow, and the rows of packages that
// do not exist.
func checkImports(pkgs []pkg, table map[string]row) []string {
	var bad []string
	seen := map[string]bool{}
	for _, p := range pkgs {
		name := inModule(p.ImportPath)
		seen[name] = true
		r, ok := table[name]
		if !ok {
			bad = append(bad, fmt.Sprintf("%s has no row in the table: place it in a layer and list what it may import", name))
			continue
		}
		for _, imp := range p.Imports {
			if ours(imp) && !slices.Contains(r.code, inModule(imp)) {
				bad = append(bad, fmt.Sprintf("%s imports %s, which its row does not allow", name, inModule(imp)))
			}
		}
		for _, imp := range slices.Concat(p.TestImports, p.XTestImports) {
			if ours(imp) && imp != p.ImportPath && !slices.Contains(slices.Concat(r.code, r.tests), inModule(imp)) {
				bad = append(bad, fmt.Sprintf("%s's tests import %s, which its row does not allow", name, inModule(imp)))
			}
		}
	}
	for name := range table {
		if !seen[name] {
			bad = append(bad, fmt.Sprintf("the table has a row for %s, which is no package", name))
		}
	}
	slices.Sort(bad)
	return bad
}

func TestTheTableRunsDownward(t *testing.T) {
	for _, problem := range checkTable(table) {
		t.Error(problem)
	}
}

func TestEveryImportIsInTheTable(t *testing.T) {
	t.Parallel()
	pkgs := list(t, root(), "./...")
	if len(pkgs) < len(table)/2 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	for _, problem := range checkImports(pkgs, table) {
		t.Error(problem)
	}
}

// TestTheCheckersCatchBackEdges feeds the checkers made-up packages and
// rows: an arrow up, a test helper in shipped code, a package with no row and
// a table that would allow an arrow up must each be reported.
func TestTheCheckersCatchBackEdges(t *testing.T) {
	cases := []struct {
		name string
		pkgs []pkg
		want string
	}{
		{"the evolver imports a door", []pkg{{ImportPath: "ratchet/evolve", Imports: []string{"ratchet/anchor", "ratchet/door"}}},
			"evolve imports door, which its row does not allow"},
		{"the anchor imports a library", []pkg{{ImportPath: "ratchet/anchor", Imports: []string{"ratchet/internal/show"}}},
			"anchor imports internal/show, which its row does not allow"},
		{"a test helper in shipped code", []pkg{{ImportPath: "ratchet/fleet", Imports: []string{"ratchet/internal/testtree"}}},
			"fleet imports internal/testtree, which its row does not allow"},
		{"a test reaches up", []pkg{{ImportPath: "ratchet/plan", XTestImports: []string{"ratchet/plan", "ratchet/evolve"}}},
			"plan's tests import evolve, which its row does not allow"},
		{"a package nobody placed", []pkg{{ImportPath: "ratchet/newthing"}},
			"newthing has no row in the table: place it in a layer and list what it may import"},
	}
	for _, c := range cases {
		if got := checkImports(c.pkgs, table); !slices.Contains(got, c.want) {
			t.Errorf("%s: the checker says %q, want %q among them", c.name, got, c.want)
		}
	}

	upward := map[string]row{"evolve": {code: []string{"anchor", "door"}}, "door": {}}
	want := "evolve (layer programs) may import door (layer doors): an arrow up"
	if got := checkTable(upward); !slices.Equal(got, []string{want}) {
		t.Errorf("a table letting evolve import door: checkTable says %q, want %q", got, want)
	}
	if got := checkImports(nil, upward); len(got) != 2 {
		t.Errorf("rows of packages that do not exist: checkImports says %q, want both named", got)
	}
}
