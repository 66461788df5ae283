package arch

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// layoutSection is the "Layout" section of docs/ARCHITECTURE.md, up to the
// next section.
func layoutSection(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root(), "docs", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "\n## Layout\n")
	if start < 0 {
		t.Fatal(`docs/ARCHITECTURE.md has no "## Layout" section`)
	}
	section := doc[start+1:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+1]
	}
	return section
}

// named are the names in backquotes of a table cell: "`a`, `b`" is a and b;
// "—" is none.
func named(cell string) []string {
	parts := strings.Split(cell, "`")
	var names []string
	for i := 1; i < len(parts); i += 2 {
		names = append(names, parts[i])
	}
	return names
}

// topFolders are the folders at the repository's top that the repository
// holds: hidden ones and those .gitignore names (bin/, demo/, .anchor/) left
// out.
func topFolders(t *testing.T) []string {
	t.Helper()
	ignored := map[string]bool{".git": true}
	if f, err := os.Open(filepath.Join(root(), ".gitignore")); err == nil {
		lines := bufio.NewScanner(f)
		for lines.Scan() {
			if line := strings.TrimSpace(lines.Text()); strings.HasSuffix(line, "/") {
				ignored[strings.Trim(line, "/")] = true
			}
		}
		f.Close()
	}
	entries, err := os.ReadDir(root())
	if err != nil {
		t.Fatal(err)
	}
	var folders []string
	for _, e := range entries {
		if e.IsDir() && !ignored[e.Name()] && !strings.HasPrefix(e.Name(), ".") {
			folders = append(folders, e.Name())
		}
	}
	return folders
}

// checkLayout lists where the Layout section and the tree disagree. Its
// tables' rows start with a name in backquotes: a folder (ending in /), a
// package of the harness module, or a package of the module, whose row is
// "| package | layer | may import | its tests may also import |" and must
// say what the table says. Every package of both modules and every folder
// of folders must have a row, and every row must name one that exists.
func checkLayout(section string, pkgs, harness, folders []string, table map[string]row) []string {
	var bad []string
	seen := map[string]bool{}
	for line := range strings.SplitSeq(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		name := strings.Trim(cells[0], "`")
		if seen[name] {
			bad = append(bad, fmt.Sprintf("Layout names %s twice", name))
		}
		seen[name] = true
		switch {
		case strings.HasSuffix(name, "/"):
			if _, err := os.Stat(filepath.Join(root(), name)); err != nil {
				bad = append(bad, fmt.Sprintf("Layout names the folder %s, which does not exist", name))
			}
		case name == "harness" || strings.HasPrefix(name, "harness/"):
			if !slices.Contains(harness, name) {
				bad = append(bad, fmt.Sprintf("Layout names %s, which is no package of the harness module", name))
			}
		case !slices.Contains(pkgs, name):
			bad = append(bad, fmt.Sprintf("Layout names %s, which is no package", name))
		case len(cells) != 4:
			bad = append(bad, fmt.Sprintf("Layout's row of %s has %d cells, want package, layer, imports, test imports", name, len(cells)))
		default:
			r := table[name]
			l := layerOf(name)
			if l < 0 {
				bad = append(bad, fmt.Sprintf("%s is in no layer of the table", name))
			} else if want := fmt.Sprintf("%d %s", l, layers[l].name); cells[1] != want {
				bad = append(bad, fmt.Sprintf("Layout puts %s in layer %q, the table in %q", name, cells[1], want))
			}
			if got := named(cells[2]); !sameSet(got, r.code) {
				bad = append(bad, fmt.Sprintf("Layout lets %s import %v, the table %v", name, got, r.code))
			}
			if got := named(cells[3]); !sameSet(got, r.tests) {
				bad = append(bad, fmt.Sprintf("Layout lets %s's tests import %v, the table %v", name, got, r.tests))
			}
		}
	}
	for _, p := range slices.Concat(pkgs, harness) {
		if !seen[p] {
			bad = append(bad, fmt.Sprintf("Layout does not name the package %s", p))
		}
	}
	for _, f := range folders {
		if !seen[f+"/"] {
			bad = append(bad, fmt.Sprintf("Layout does not name the folder %s/", f))
		}
	}
	return bad
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func paths(pkgs []pkg) []string {
	var names []string
	for _, p := range pkgs {
		names = append(names, inModule(p.ImportPath))
	}
	return names
}

// TestLayoutSectionMatchesTheTree: docs/ARCHITECTURE.md's "Layout" names
// every top-level folder and every package, and says of each package what
// the table says it may import.
func TestLayoutSectionMatchesTheTree(t *testing.T) {
	t.Parallel()
	pkgs := paths(list(t, root(), "./..."))
	harness := paths(list(t, filepath.Join(root(), "harness"), "./..."))
	for _, problem := range checkLayout(layoutSection(t), pkgs, harness, topFolders(t), table) {
		t.Error(problem)
	}
}

// TestLayoutCheckCatchesDrift feeds checkLayout a section that has drifted
// from the tree: each drift must be reported.
func TestLayoutCheckCatchesDrift(t *testing.T) {
	tbl := map[string]row{"plan": {code: []string{"anchor"}}}
	header := "| package | layer | may import | its tests may also import |\n|---|---|---|---|\n"
	good := header + "| `plan` | 2 programs | `anchor` | — |\n| `harness/core` | the types |\n| `docs/` | this |\n"
	if got := checkLayout(good, []string{"plan"}, []string{"harness/core"}, []string{"docs"}, tbl); len(got) > 0 {
		t.Fatalf("a section that matches: %q", got)
	}
	cases := []struct{ section, want string }{
		{header + "| `plan` | 2 programs | `anchor` | — |\n| `docs/` | this |\n", "Layout does not name the package harness/core"},
		{good + "| `gone` | 2 programs | — | — |\n", "Layout names gone, which is no package"},
		{good + "| `harness/gone` | was |\n", "Layout names harness/gone, which is no package of the harness module"},
		{good + "| `no-such-folder/` | was |\n", "Layout names the folder no-such-folder/, which does not exist"},
		{strings.Replace(good, "| `anchor` |", "| `anchor`, `door` |", 1), "Layout lets plan import [anchor door], the table [anchor]"},
		{strings.Replace(good, "2 programs", "3 doors", 1), `Layout puts plan in layer "3 doors", the table in "2 programs"`},
		{strings.Replace(good, "| `docs/` | this |\n", "", 1), "Layout does not name the folder docs/"},
	}
	for _, c := range cases {
		got := checkLayout(c.section, []string{"plan"}, []string{"harness/core"}, []string{"docs"}, tbl)
		if !slices.Contains(got, c.want) {
			t.Errorf("checkLayout says %q, want %q among them", got, c.want)
		}
	}
}
