package anchor

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
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

// TestInitRefusesAHoldoutThatCannotAccept: a holdout of fewer groups than
// the sign test needs at the ledger's alpha is refused before anything is
// run or frozen, saying how many groups it has; five groups are enough at
// alpha 0.05 (p = 1/32), and that init goes on to need a model, as one
// given --force does.
func TestInitRefusesAHoldoutThatCannotAccept(t *testing.T) {
	needPreflight(t)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "h"), 0o755)
	os.WriteFile(filepath.Join(dir, "h", "manifest.toml"), []byte("name = \"h\"\n"), 0o644)
	addHoldout := func(id, group string) {
		d := filepath.Join(dir, "suite", "holdout", id)
		os.MkdirAll(d, 0o755)
		toml := fmt.Sprintf("prompt = \"fix it\"\ntest = \"go test ./...\"\ngroup = %q\n", group)
		os.WriteFile(filepath.Join(d, "task.toml"), []byte(toml), 0o644)
	}
	for i := range 6 { // six tasks in four groups
		addHoldout(fmt.Sprintf("t%d", i), fmt.Sprintf("g%d", i%4))
	}
	out, err := anchorCmd(t, dir, os.Getenv("PATH"), "init", "--harness", "h")
	if code := exitCode(err); code != 2 || !strings.Contains(out, "has 4 holdout groups") ||
		!strings.Contains(out, "p = 0.062") {
		t.Fatalf("init on four holdout groups: exit %d, want 2 and a refusal:\n%s", code, out)
	}
	if meta := ledgerMeta(t, filepath.Join(dir, ".anchor")); len(meta) > 0 {
		t.Errorf("a refused init froze %v", meta)
	}
	out, err = anchorCmd(t, dir, os.Getenv("PATH"), "init", "--force", "--harness", "h")
	if strings.Contains(out, "holdout groups") || err == nil {
		t.Errorf("init --force on four holdout groups was refused for them, or needed no model: %v\n%s", err, out)
	}
	addHoldout("t6", "g4")
	out, err = anchorCmd(t, dir, os.Getenv("PATH"), "init", "--harness", "h")
	if strings.Contains(out, "holdout groups") || err == nil {
		t.Errorf("init on five holdout groups was refused for them, or needed no model: %v\n%s", err, out)
	}
}

// TestLedgerKeepsItsSuite: init freezes the suite's absolute path; a
// command given another suite (by flag or ANCHOR_TASKS) is refused with a
// line naming both, and one given none uses the ledger's.
func TestLedgerKeepsItsSuite(t *testing.T) {
	needPreflight(t)
	dir := t.TempDir()
	home := filepath.Join(dir, ".anchor")
	frozen := filepath.Join(dir, "frozen-suite")
	os.MkdirAll(home, 0o755)
	a := &Anchor{Home: home}
	if err := a.open(); err != nil {
		t.Fatal(err)
	}
	a.db.Exec(`INSERT INTO meta VALUES('tasks', ?)`, frozen)
	a.db.Close()
	os.MkdirAll(filepath.Join(dir, "h"), 0o755)
	os.WriteFile(filepath.Join(dir, "h", "manifest.toml"), []byte("name = \"h\"\n"), 0o644)
	// anchorCmd sets ANCHOR_TASKS to dir/suite.
	for _, args := range [][]string{{"eval", "--split", "holdout"}, {"eval", "--tasks", "other", "--split", "holdout"}} {
		out, err := anchorCmd(t, dir, os.Getenv("PATH"), args...)
		if code := exitCode(err); code == 0 || !strings.Contains(out, "froze --tasks "+frozen+" at init, not "+dir) ||
			strings.Count(strings.TrimSpace(out), "\n") > 0 {
			t.Errorf("anchor %v on a ledger of another suite: exit %d, want one line naming both:\n%s", args, code, out)
		}
	}
	self, _ := os.Executable()
	cmd := exec.Command(self, "eval", "--harness", "h", "--split", "holdout")
	cmd.Dir, cmd.Env = dir, []string{"ANCHOR_TEST_MAIN=1", "PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "no tasks in "+filepath.Join(frozen, "holdout")) {
		t.Errorf("anchor eval with no suite given did not read the ledger's: %v\n%s", err, out)
	}
}

// exitCode is a finished command's exit status, 0 when err is nil.
func exitCode(err error) int {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// ledgerMeta is the meta table of the ledger in home.
func ledgerMeta(t *testing.T, home string) map[string]string {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(home, "ledger.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	meta := map[string]string{}
	rows, err := db.Query(`SELECT key, value FROM meta`)
	if err != nil {
		return meta // no ledger, or no table: nothing frozen
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		rows.Scan(&k, &v)
		meta[k] = v
	}
	return meta
}

// needPreflight skips a test of what a command does after preflight on a
// machine without the tools preflight asks for (make test-short needs none).
func needPreflight(t *testing.T) {
	for _, tool := range installs {
		if _, err := exec.LookPath(tool[0]); err != nil {
			t.Skipf("%s is missing: the command would stop at preflight", tool[0])
		}
	}
}

// TestBuildsOnLinuxOnlySaysSo: built for another system, the anchor's
// package holds builds_on_linux_only.go, whose one name is defined nowhere,
// so the build stops there saying why (it sorts before the files whose
// Linux-only system calls would otherwise be the first errors shown: go
// build lists errors by file). Checked through go list, which compiles
// nothing: a build for macOS compiles the standard library and SQLite anew.
func TestBuildsOnLinuxOnlySaysSo(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{join .GoFiles \" \"}}", ".")
	cmd.Env = append(os.Environ(), "GOOS=darwin", "GOARCH=arm64", "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	files := strings.Fields(string(out))
	if err != nil || !slices.Contains(files, "builds_on_linux_only.go") {
		t.Fatalf("the package for macOS: %v %q; want builds_on_linux_only.go in it", err, out)
	}
	for _, f := range files { // sorted: the marker must come before the system calls
		if f == "builds_on_linux_only.go" {
			break
		}
		if b, _ := os.ReadFile(f); bytes.Contains(b, []byte("syscall.Mount")) || bytes.Contains(b, []byte("MNT_DETACH")) {
			t.Errorf("%s uses Linux-only calls and sorts before the marker", f)
		}
	}
	marker, _ := os.ReadFile("builds_on_linux_only.go")
	name := regexp.MustCompile(`var _ = (\w*Linux_only\w*)`).FindSubmatch(marker)
	if name == nil {
		t.Fatalf("builds_on_linux_only.go names no Linux_only identifier:\n%s", marker)
	}
	others, _ := filepath.Glob("*.go")
	for _, f := range others {
		if b, _ := os.ReadFile(f); f != "builds_on_linux_only.go" && bytes.Contains(b, name[1]) {
			t.Errorf("%s names %s: defined there, the build elsewhere would not stop", f, name[1])
		}
	}
}
