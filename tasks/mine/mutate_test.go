package mine

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ratchet/anchor"
	"ratchet/internal/testtree"
	"ratchet/tasks"
)

// calcModule is a small Go module whose tests catch most changes to its
// two functions.
var calcModule = map[string]string{
	"go.mod":            goMod,
	"calc/sum.go":       sumFixed,
	"calc/clamp.go":     clamp1,
	"calc/slow_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestSlow(t *testing.T) {\n\tt.Skip(\"run with -slow\")\n}\n",
	"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestSum(t *testing.T) {\n\tif got := Sum([]int{1, 2, 3}); got != 6 {\n\t\tt.Errorf(\"Sum(1, 2, 3) = %d, want 6\", got)\n\t}\n}\n\n" +
		"func TestClamp(t *testing.T) {\n\tfor _, c := range [][4]int{{0, 0, 9, 0}, {-1, 0, 9, 0}, {9, 0, 9, 9}, {10, 0, 9, 9}, {5, 0, 9, 5}} {\n\t\tif got := Clamp(c[0], c[1], c[2]); got != c[3] {\n\t\t\tt.Errorf(\"Clamp(%d, %d, %d) = %d, want %d\", c[0], c[1], c[2], got, c[3])\n\t\t}\n\t}\n}\n",
}

// calcFiles is calcModule as a tree of bytes, for tryMutant.
func calcFiles() map[string][]byte {
	files := map[string][]byte{}
	for name, body := range calcModule {
		files[name] = []byte(body)
	}
	return files
}

// negated is the sites of file name that negate a condition; the test
// stops when it has none.
func negated(t *testing.T, files map[string][]byte, name string) []site {
	t.Helper()
	var sites []site
	for _, s := range goSites(name, files[name]) {
		if s.Kind == "negate" {
			sites = append(sites, s)
		}
	}
	if len(sites) == 0 {
		t.Fatalf("no negated condition in %s", name)
	}
	return sites
}

// suiteFiles is every task of a suite by split/id, with the hash of its
// files.
func suiteFiles(t *testing.T, out string) map[string]string {
	t.Helper()
	got := map[string]string{}
	dirs, _ := filepath.Glob(filepath.Join(out, "*", "*"))
	for _, d := range dirs {
		files, err := anchor.ReadTree(d, true)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(out, d)
		got[rel] = anchor.HashOf(files)
	}
	return got
}

// calcProject writes calcModule into a new folder and names a suite folder
// beside it for mutate to write.
func calcProject(t *testing.T) (repo, out string) {
	t.Helper()
	repo = t.TempDir()
	testtree.Write(t, repo, calcModule)
	return repo, filepath.Join(t.TempDir(), "suite")
}

func TestMutateGo(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs mutants in the sandbox")
	}
	repo, out := calcProject(t)
	o := MutateOptions{Repo: repo, Out: out, N: 2, Seed: 1, Split: [3]int{50, 50, 0}, Jobs: 2}
	sum, err := Mutate(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	sum.Print(&b, "mutants")
	t.Log(b.String())
	if sum.Written["train"] != 1 || sum.Written["holdout"] != 1 {
		t.Errorf("written %v, want one in train and one in holdout", sum.Written)
	}
	first := suiteFiles(t, out)
	splitOfGroup := map[string]string{} // no function's mutants in two splits
	for rel := range first {
		dir := filepath.Join(out, rel)
		task, err := anchor.LoadTask(dir)
		if err != nil {
			t.Fatal(err)
		}
		split := strings.Split(filepath.ToSlash(rel), "/")[0]
		if was, ok := splitOfGroup[task.Group]; ok && was != split {
			t.Errorf("group %s spans %s and %s", task.Group, was, split)
		}
		splitOfGroup[task.Group] = split
		ref, _ := anchor.ReadTree(filepath.Join(dir, "reference"), false)
		mutant, _ := anchor.ReadTree(filepath.Join(dir, "repo"), false)
		toml, _ := os.ReadFile(filepath.Join(dir, "task.toml"))
		for name, orig := range ref {
			if !strings.Contains(string(toml), `group = "`+name+`:`) || bytes.Equal(mutant[name], orig) || string(orig) != calcModule[name] {
				t.Errorf("%s: reference %s is not the original beside a mutant of it, in its group:\n%s", rel, name, toml)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "hidden", "calc", "slow_test.go")); err == nil {
			t.Errorf("%s: hidden/ holds a test that always skips (it would count as failed)", rel)
		}
		if !strings.Contains(task.Prompt, "go test ./calc` fails in Test") || !strings.Contains(task.Prompt, "want") && !strings.Contains(task.Prompt, "panic:") {
			t.Errorf("%s: prompt is no bug report:\n%s", rel, task.Prompt)
		}
	}
	// The validator's rules: the hidden tests fail on the mutant and pass
	// on the reference.
	var table bytes.Buffer
	results, err := tasks.Validate(context.Background(), out, 2, &table)
	if err != nil || len(results) != 2 {
		t.Fatalf("%v\n%s", err, table.String())
	}
	for _, r := range results {
		if r.Problem != "" || !strings.HasPrefix(r.Untouched, "0/") || r.Untouched == r.Reference {
			t.Errorf("%s is bad (a do-nothing tree must score 0):\n%s", r.ID, table.String())
		}
	}
	// The same seed gives the same tasks.
	o.Out = filepath.Join(t.TempDir(), "again")
	if _, err := Mutate(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if again := suiteFiles(t, o.Out); !mapsEqual(first, again) {
		t.Errorf("the same seed gave other tasks:\n%v\n%v", first, again)
	}
	if _, err := Mutate(context.Background(), o); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("a full --out: %v", err)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestMutatePython(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs mutants in the sandbox")
	}
	repo := t.TempDir()
	testtree.Write(t, repo, map[string]string{
		"stats.py": "def mean(xs):\n    if len(xs) == 0:\n        return 0\n    return sum(xs) / len(xs)\n",
		"tests/test_stats.py": "from stats import mean\n\n\ndef test_mean():\n    assert mean([1, 2, 3, 6]) == 3\n\n\ndef test_empty():\n    assert mean([]) == 0\n" +
			// a test that needs the package installed fails on the project's own code: it is set aside
			"\n\ndef test_installed():\n    import importlib.metadata\n    assert importlib.metadata.version('stats')\n",
		// a test file outside the project's testpaths is not among its tests: it is not hidden, nor scored
		"pytest.ini":          "[pytest]\ntestpaths = tests\n",
		"bench/test_speed.py": "from stats import mean\n\n\ndef test_speed():\n    assert mean(range(1000)) >= 0\n",
	})
	out := filepath.Join(t.TempDir(), "suite")
	var progress bytes.Buffer
	sum, err := Mutate(context.Background(), MutateOptions{Repo: repo, Out: out, N: 1, Seed: 1, Split: [3]int{60, 25, 15}, Jobs: 2,
		Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(progress.String(), "set aside, failing on the project's own code") ||
		!strings.Contains(progress.String(), "tests/test_stats.py::test_installed") {
		t.Errorf("the progress does not name the test set aside:\n%s", progress.String())
	}
	if bench, _ := filepath.Glob(filepath.Join(out, "train", "stats-*", "hidden", "bench")); len(bench) > 0 {
		t.Errorf("%v: a test file the project's pytest does not collect is hidden, to be scored", bench)
	}
	hidden, _ := filepath.Glob(filepath.Join(out, "train", "stats-*", "hidden", "tests", "test_stats.py"))
	if b, err := os.ReadFile(strings.Join(hidden, "")); err != nil || !strings.Contains(string(b), "def fails_on_original_test_installed(") {
		t.Errorf("hidden %v: the test failing on the original is still collected (%v):\n%s", hidden, err, b)
	}
	dirs, _ := filepath.Glob(filepath.Join(out, "train", "stats-*"))
	if sum.Written["train"] != 1 || len(dirs) != 1 {
		t.Fatalf("summary %+v, tasks %v", sum, dirs)
	}
	task, _ := anchor.LoadTask(dirs[0])
	if !strings.Contains(task.Prompt, "tests/test_stats.py::test_") || !strings.Contains(task.Prompt, "assert") {
		t.Errorf("prompt:\n%s", task.Prompt)
	}
}

func TestGoSites(t *testing.T) {
	src := "package calc\n\nfunc f(xs []int) int {\n\ts := 0\n\tfor i := 0; i < len(xs); i++ {\n\t\ts += xs[i] - 1\n\t}\n\treturn s\n}\n"
	body := func(mutated string) string { // the function's body up to its return
		return strings.TrimSpace(strings.Split(mutated[strings.Index(mutated, "{")+1:], "return")[0])
	}
	wantSites(t, "calc/f.go", src, body,
		"flip: s := 0\n\tfor i := 0; i <= len(xs); i++ {\n\t\ts += xs[i] - 1\n\t}",
		"swap: s := 0\n\tfor i := 0; len(xs) < i; i++ {\n\t\ts += xs[i] - 1\n\t}",
		"bound: s := 0\n\tfor i := 0; i < len(xs)+1; i++ {\n\t\ts += xs[i] - 1\n\t}",
		"swap: s := 0\n\tfor i := 0; i < len(xs); i++ {\n\t\ts += 1 - xs[i]\n\t}",
		"constant: s := 0\n\tfor i := 0; i < len(xs); i++ {\n\t\ts += xs[i] - 2\n\t}",
		"drop: s := 0\n\tfor i := 0; i < len(xs); i++ {\n\t\t\n\t}")
	// An arithmetic or boolean operator swapped, a condition negated, two
	// arguments swapped, an early return removed.
	src = "package calc\n\nfunc g(a, b int, ok bool) int {\n\tif a < 0 && ok {\n\t\treturn 0\n\t}\n\treturn max(a*b, b)\n}\n"
	whole := func(mutated string) string {
		return strings.TrimPrefix(mutated, "package calc\n\nfunc g(a, b int, ok bool) int {\n")
	}
	wantSites(t, "calc/g.go", src, whole,
		"operator: \tif a < 0 || ok {\n\t\treturn 0\n\t}\n\treturn max(a*b, b)\n}\n",
		"operator: \tif a < 0 && ok {\n\t\treturn 0\n\t}\n\treturn max(a/b, b)\n}\n",
		"negate: \tif !(a < 0 && ok) {\n\t\treturn 0\n\t}\n\treturn max(a*b, b)\n}\n",
		"args: \tif a < 0 && ok {\n\t\treturn 0\n\t}\n\treturn max(b, a*b)\n}\n",
		"early-return: \t\n\treturn max(a*b, b)\n}\n")
}

// wantSites fails unless goSites finds, in src, a mutant for each of wants
// ("kind: " and the mutated source as view shows it).
func wantSites(t *testing.T, name, src string, view func(string) string, wants ...string) {
	t.Helper()
	var got []string
	for _, s := range goSites(name, []byte(src)) {
		got = append(got, s.Kind+": "+view(src[:s.Start]+s.Repl+src[s.End:]))
	}
	for _, want := range wants {
		if !slices.Contains(got, want) {
			t.Errorf("no mutant\n%s\namong\n%s", want, strings.Join(got, "\n---\n"))
		}
	}
}

// TestMutateNamesFailingTestsAndTakesRev: on a repository whose tests fail
// at HEAD, mutate says which tests fail and points at --rev; given the
// commit where they passed, it mutates that commit's code.
func TestMutateNamesFailingTestsAndTakesRev(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the tests in the sandbox")
	}
	repo := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		cmd.Dir = repo
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	testtree.Write(t, repo, calcModule)
	git("add", "-A")
	git("commit", "-qm", "calc")
	good := git("rev-parse", "HEAD")
	testtree.Write(t, repo, map[string]string{"calc/sum.go": sumBuggy})
	git("commit", "-qam", "break Sum")
	out := filepath.Join(t.TempDir(), "suite")
	_, err := Mutate(context.Background(), MutateOptions{Repo: repo, Out: out, N: 1, Seed: 1, Split: [3]int{100, 0, 0}, Jobs: 2})
	if err == nil || !strings.Contains(err.Error(), "TestSum fail") || !strings.Contains(err.Error(), "--rev") {
		t.Fatalf("mutate on failing tests: %v; want the failing test named and --rev suggested", err)
	}
	if _, err := Mutate(context.Background(), MutateOptions{Repo: repo, Rev: "nosuch", Out: out, N: 1, Seed: 1,
		Split: [3]int{100, 0, 0}, Jobs: 2}); err == nil || !strings.Contains(err.Error(), "--rev nosuch") {
		t.Errorf("an unknown --rev: %v", err)
	}
	sum, err := Mutate(context.Background(), MutateOptions{Repo: repo, Rev: good, Out: out, N: 1, Seed: 1,
		Split: [3]int{100, 0, 0}, Jobs: 2})
	if err != nil || sum.Seen == 0 {
		t.Fatalf("mutate --rev %s: %v", good, err)
	}
	refs, _ := filepath.Glob(filepath.Join(out, "train", "*", "reference", "calc", "*.go"))
	for _, ref := range refs {
		if b, _ := os.ReadFile(ref); string(b) == sumBuggy {
			t.Errorf("%s is HEAD's broken Sum, not the code of --rev", ref)
		}
	}
}

// TestMutateTimeBudget: a spent budget stops mutate before the next batch
// of mutants; here it is spent before the first, so nothing is tried and
// nothing written.
func TestMutateTimeBudget(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the tests in the sandbox")
	}
	repo, out := calcProject(t)
	sum, err := Mutate(context.Background(), MutateOptions{Repo: repo, Out: out, N: 5, Seed: 1, Split: [3]int{100, 0, 0},
		Jobs: 2, Budget: time.Nanosecond})
	if err == nil || sum.Seen != 0 {
		t.Errorf("a spent budget: %d mutants tried, %v; want none and nothing written", sum.Seen, err)
	}
	if entries, _ := os.ReadDir(out); len(entries) > 0 {
		t.Errorf("a run that kept nothing wrote %d entries into %s", len(entries), out)
	}
}

func TestPanicSymptom(t *testing.T) {
	lines := []string{
		"--- FAIL: TestSum (0.00s)",
		"panic: runtime error: index out of range [3] with length 3 [recovered, repanicked]",
		"goroutine 19 [running]:",
		"testing.tRunner.func1.2({0x575440, 0xc62edfc0030})",
		"\t/usr/local/go/src/testing/testing.go:1974 +0x232",
		"example.com/calc/calc.Sum(...)",
		"\t/work/task/calc/sum.go:6",
		"example.com/calc/calc.TestSum(0xc000003180)",
		"\t/work/task/calc/calc_test.go:6 +0x1d",
		"testing.tRunner(0xc000003180, 0x5a2e30)",
		"\t/usr/local/go/src/testing/testing.go:2036 +0xea",
	}
	got := strings.Join(panicSymptom(lines), "\n")
	want := "--- FAIL: TestSum (0.00s)\npanic: runtime error: index out of range [3] with length 3\n" +
		"at example.com/calc/calc.TestSum (calc_test.go:6)"
	if got != want {
		t.Errorf("panicSymptom:\n%s\nwant\n%s", got, want)
	}
	if plain := []string{"sum_test.go:9: Sum(1, 2) = 4, want 3"}; !slices.Equal(panicSymptom(plain), plain) {
		t.Errorf("output without a panic changed: %v", panicSymptom(plain))
	}
}

func TestNamesMutation(t *testing.T) {
	for _, c := range []struct {
		prompt, was, became string
		want                bool
	}{
		{"Clamp(10, 0, 9) = 10, want 9", "x > hi", "x >= hi", false},
		{"assertion failed: i <= len(xs) at line 6", "i < len(xs)", "i <= len(xs)", true},
		{"got s+=xs[i]-1 somewhere", "s += xs[i] - 1", "", true},
		{"x < 0 fails", "<", "<=", false}, // too short to be a quote
	} {
		if got := namesMutation(c.prompt, c.was, c.became); got != c.want {
			t.Errorf("namesMutation(%q, %q, %q) = %v, want %v", c.prompt, c.was, c.became, got, c.want)
		}
	}
}

// tasks mine --mutants: the mined tasks and the mutants land in one suite,
// the mined state kept (a second mine run stays incremental), and a second
// AddMutants of the same seed adds nothing the suite holds.
func TestAddMutants(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("mines and mutates in the sandbox")
	}
	r := newRepo(t)
	r.commit("Add calc", map[string]string{"go.mod": goMod, "calc/sum.go": sumBuggy, "calc/sum_test.go": sumTest0,
		"calc/max.go": maxCode2, "calc/max_test.go": maxTest})
	r.commit("Sum drops the last number\n\nSum of 1, 2 and 3 comes out as 3 instead of 6.",
		map[string]string{"calc/sum.go": sumFixed, "calc/sum_test.go": sumTest1})
	out := filepath.Join(t.TempDir(), "suite")
	ctx := context.Background()
	if sum, err := Mine(ctx, Options{Repo: r.dir, Out: out, Split: [3]int{0, 100, 0}, Jobs: 2}); err != nil ||
		sum.Written["holdout"] != 1 {
		t.Fatalf("mine: %+v, %v", sum, err)
	}
	o := MutateOptions{Repo: r.dir, Out: out, N: 1, Seed: 1, Split: [3]int{100, 0, 0}, Jobs: 2}
	sum, err := AddMutants(ctx, o)
	if err != nil || sum.Written["train"] != 1 {
		t.Fatalf("add mutants: %+v, %v", sum, err)
	}
	tasks, _ := filepath.Glob(filepath.Join(out, "*", "*", "task.toml"))
	if len(tasks) != 2 {
		t.Errorf("the suite holds %d tasks, want the mined one and a mutant: %v", len(tasks), tasks)
	}
	if b, err := os.ReadFile(filepath.Join(out, stateFile)); err != nil || !strings.Contains(string(b), `"kind": "mine"`) {
		t.Errorf("the mined state after adding mutants (%v):\n%s", err, b)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".ratchet-mine-*")); len(leftovers) > 0 {
		t.Errorf("staging folders left beside the suite: %v", leftovers)
	}
	if again, err := AddMutants(ctx, o); err != nil || again.Written["train"] != 0 || again.Skipped[reasonSame] != 1 {
		t.Errorf("the same mutant again: %+v, %v; want none written, 1 the same", again, err)
	}
}

// A mutant's run is cut at three times the original's, within bounds: a
// quick project's loop costs seconds, a slow one's tests are not cut.
func TestHangAfter(t *testing.T) {
	for _, c := range []struct{ original, want time.Duration }{
		{time.Second, 5 * time.Second}, {2 * time.Second, 6 * time.Second},
		{5 * time.Second, 15 * time.Second},
		{7*time.Second + 300*time.Millisecond, 22 * time.Second},
		{10 * time.Minute, mutateCheckTime},
	} {
		if got := hangAfter(c.original); got != c.want {
			t.Errorf("hangAfter(%s) = %s, want %s", c.original, got, c.want)
		}
	}
}

// Sites are tried a round at a time: one of every function before a second
// of any, each function's own in their shuffled order.
func TestSpread(t *testing.T) {
	at := func(file, fn string, line int) site { return site{File: file, Fn: fn, Line: line} }
	in := []site{at("a.go", "F", 1), at("a.go", "F", 2), at("a.go", "F", 3), at("b.go", "G", 1), at("a.go", "", 9), at("b.go", "G", 2)}
	var got []string
	for _, s := range spread(in) {
		got = append(got, fmt.Sprintf("%s:%d", groupOf(s), s.Line))
	}
	want := []string{"a.go:F:1", "b.go:G:1", "a.go:9", "a.go:F:2", "b.go:G:2", "a.go:F:3"}
	if !slices.Equal(got, want) {
		t.Errorf("spread = %v, want %v", got, want)
	}
}

// After every third site of a function comes a bug of the next two or
// three whose spans do not overlap, and apply makes all its edits.
func TestCombine(t *testing.T) {
	var in []site
	for i := range 9 {
		in = append(in, site{File: "a.go", Fn: "F", Kind: "flip", Line: i, Start: 10 * i, End: 10*i + 2, Repl: fmt.Sprint(i)})
	}
	in[4].Start = in[3].Start + 1 // overlaps the fourth: left out of its bug
	in = append(in, site{File: "a.go", Fn: "G", Line: 99, Start: 500, End: 501})
	var got []string
	for _, s := range combine(in) {
		d := fmt.Sprintf("%s:%d", s.Fn, s.Line)
		for _, w := range s.With {
			d += fmt.Sprintf("+%d", w.Line)
		}
		got = append(got, d)
	}
	want := []string{"F:0", "F:1", "F:2", "F:3+5", "F:3", "F:4", "F:5", "F:6+7+8", "F:6", "F:7", "F:8", "G:99"}
	if !slices.Equal(got, want) {
		t.Errorf("combine = %v, want %v", got, want)
	}
	src := []byte("0123456789abcdefghij")
	bug := site{Start: 12, End: 14, Repl: "XY", With: []site{{Start: 1, End: 3, Repl: "-"}, {Start: 5, End: 5, Repl: "+"}}}
	if got := string(bug.apply(src)); got != "0-34+56789abXYefghij" {
		t.Errorf("apply = %q", got)
	}
	if string(src) != "0123456789abcdefghij" {
		t.Errorf("apply changed its source: %q", src)
	}
}

// A combined bug is one task: both edits in its repo/, the original as its
// reference, and checked by the validator's rules like any mutant; its
// command skips the slow test that passes on it and so never counts.
func TestCombinedBugMakesOneTask(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs a mutant in the sandbox")
	}
	files := calcFiles()
	// A slow test the mutant passes counts for nothing: the task's command skips it.
	files["calc/pass_test.go"] = []byte("package calc\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\n" +
		"func TestSlowPass(t *testing.T) {\n\ttime.Sleep(200 * time.Millisecond)\n}\n")
	negate := negated(t, files, "calc/clamp.go")
	if len(negate) != 2 {
		t.Fatalf("Clamp's negated conditions: %v, want 2", negate)
	}
	bug := negate[0]
	bug.Kind, bug.With = "two-bugs", negate[1:]
	m := &mutant{s: bug}
	tryMutant(context.Background(), m, files, original{skipped: map[string]bool{"calc TestSlow": true}}, "go test", t.TempDir(), 0, 30*time.Second, newTypeChecker(files))
	if m.reason != "" {
		t.Fatalf("the combined bug was dropped: %s", m.reason)
	}
	mutated := string(m.t.repo["calc/clamp.go"])
	if !strings.Contains(mutated, "!(x < lo)") || !strings.Contains(mutated, "!(x > hi)") ||
		string(m.t.reference["calc/clamp.go"]) != clamp1 || m.t.group != "calc/clamp.go:Clamp" {
		t.Errorf("task %s: repo\n%s\nreference\n%s\ngroup %s", m.t.id, mutated, m.t.reference["calc/clamp.go"], m.t.group)
	}
	if m.t.test != "go test -timeout 1m0s -skip '^(TestSlowPass)$' ./calc" {
		t.Errorf("the task's command is %q, want the slow passing test skipped", m.t.test)
	}
	if !strings.Contains(m.t.id, "two-bugs") || !strings.Contains(m.t.prompt, "`go test ./calc` fails") ||
		strings.Contains(m.t.prompt, "x < lo") || strings.Contains(m.t.prompt, "x > hi") {
		t.Errorf("task %s, prompt:\n%s", m.t.id, m.t.prompt)
	}
}

// A Python bug report keeps the test's frames and the error, never a frame
// in the code, whose source line is the bug; and a prompt that quotes a
// changed line, as the mutant has it or as the reference does, is refused.
func TestPythonPromptHidesTheCodeFrame(t *testing.T) {
	out := "FAILED tests/test_calc.py::test_pick - IndexError\n" +
		"___________________ test_pick ___________________\n" +
		"tests/test_calc.py:7: in test_pick\n    assert pick((4, 5)) == 4\n" +
		"calc/pick.py:3: in pick\n    return items[1]\n" +
		"E   IndexError: tuple index out of range\n" +
		"=========== short test summary info ===========\n"
	tk := task{test: "python3 -m pytest -q"}
	if r := pyVerdict(1, []byte(out), false, nil, &tk); r != "" {
		t.Fatalf("verdict %q", r)
	}
	if strings.Contains(tk.prompt, "items[1]") || strings.Contains(tk.prompt, "pick.py") ||
		!strings.Contains(tk.prompt, "assert pick((4, 5)) == 4") || !strings.Contains(tk.prompt, "IndexError: tuple index") {
		t.Errorf("prompt:\n%s", tk.prompt)
	}
	ref := map[string][]byte{"calc/pick.py": []byte("def pick(items):\n    # the first\n    return items[0]\n")}
	mut := map[string][]byte{"calc/pick.py": []byte("def pick(items):\n    # the first\n    return items[1]\n")}
	for prompt, want := range map[string]bool{"it fails:\n    return items[1]": true, "it fails:\n  return items[0]": true,
		"it fails: # the first": false, "IndexError": false} {
		if got := quotesChange(task{prompt: prompt, repo: mut, reference: ref}, 8, true); got != want {
			t.Errorf("quotesChange(%q) = %v, want %v", prompt, got, want)
		}
	}
}

// go/types tells a mutant that does not build before a sandbox is spent on
// it, honouring build constraints; a package importing beyond the standard
// library, or whose original does not check, is left to the sandbox.
func TestTypeCheckerTellsWhatDoesNotBuild(t *testing.T) {
	files := map[string][]byte{
		"go.mod":         []byte(goMod),
		"calc/clamp.go":  []byte(clamp1),
		"calc/os_js.go":  []byte("package calc\n\nfunc Clamp() {}\n"), // another platform's: not a redeclaration
		"calc/log.go":    []byte("//go:build never\n\npackage calc\n\nfunc Clamp() {}\n"),
		"ext/ext.go":     []byte("package ext\n\nimport \"example.com/other\"\n\nvar X = other.Y\n"),
		"calc/c_test.go": []byte("package calc\n"),
		"calc/up.go":     []byte("package calc\n\nimport \"strings\"\n\nvar Up = strings.ToUpper\n"),
	}
	c := newTypeChecker(files)
	unused := maps.Clone(files)
	unused["calc/clamp.go"] = []byte(strings.Replace(clamp1, "return x\n", "y := x\n\treturn x\n", 1))
	fine := maps.Clone(files)
	fine["calc/clamp.go"] = []byte(strings.Replace(clamp1, "x < lo", "x <= lo", 1))
	if !c.fails(unused, "calc", "calc/clamp.go") {
		t.Error("a mutant with an unused variable type-checks")
	}
	if c.fails(fine, "calc", "calc/clamp.go") {
		t.Error("a mutant that builds fails the type check")
	}
	broken := maps.Clone(files)
	broken["ext/ext.go"] = []byte("package ext\n\nimport \"example.com/other\"\n\nvar X = other.Y +\n")
	if c.fails(broken, "ext", "ext/ext.go") {
		t.Error("a package importing beyond the standard library was judged on the host")
	}
}

// Only the tests that failed on the mutant are hidden and counted: a test
// its run never reached (an earlier test's panic ended the binary) is cut,
// not counted failed on the untouched tree without having been seen to.
func TestOnlyTestsSeenFailingCount(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs a mutant in the sandbox")
	}
	files := calcFiles()
	files["calc/zz_test.go"] = []byte("package calc\n\nimport \"testing\"\n\n" +
		"func TestClampPanics(t *testing.T) {\n\tif Clamp(5, 0, 9) != 5 {\n\t\tpanic(\"Clamp(5, 0, 9) is wrong\")\n\t}\n}\n\n" +
		"func TestNotReached(t *testing.T) {}\n")
	m := &mutant{s: negated(t, files, "calc/clamp.go")[0]}
	tryMutant(context.Background(), m, files, original{skipped: map[string]bool{"calc TestSlow": true}}, "go test", t.TempDir(), 0,
		30*time.Second, newTypeChecker(files))
	if m.reason != "" {
		t.Fatalf("the mutant was dropped: %s", m.reason)
	}
	zz := string(m.t.hidden["calc/zz_test.go"])
	if !strings.Contains(zz, "func TestClampPanics") || strings.Contains(zz, "TestNotReached") ||
		!strings.Contains(string(m.t.hidden["calc/calc_test.go"]), "func TestClamp(") ||
		strings.Contains(string(m.t.hidden["calc/calc_test.go"]), "func TestSum(") {
		t.Errorf("hidden tests:\n%s\n%s", m.t.hidden["calc/calc_test.go"], zz)
	}
}

// A method's mutants are grouped with its type: two types' String are two
// functions, and a function is named as it is.
func TestGroupsNameTheReceiver(t *testing.T) {
	src := "package p\n\ntype A int\ntype B[T any] struct{ v T }\n\n" +
		"func (a A) String() string {\n\tif a > 1 {\n\t\treturn \"a\"\n\t}\n\treturn \"\"\n}\n\n" +
		"func (b *B[T]) String() string {\n\tif b == nil {\n\t\treturn \"b\"\n\t}\n\treturn \"\"\n}\n\n" +
		"func String(x int) string {\n\tif x > 1 {\n\t\treturn \"s\"\n\t}\n\treturn \"\"\n}\n"
	groups := map[string]bool{}
	for _, s := range goSites("p/p.go", []byte(src)) {
		groups[groupOf(s)] = true
	}
	want := []string{"p/p.go:A.String", "p/p.go:B.String", "p/p.go:String"}
	if got := slices.Sorted(maps.Keys(groups)); !slices.Equal(got, want) {
		t.Errorf("groups %v, want %v", got, want)
	}
}

// A Python method is grouped with its class and a nested function with
// what holds it: two classes' methods of one name are two groups.
func TestPythonGroupsNameTheClass(t *testing.T) {
	src := "class A:\n    def f(self, x):\n        return x < 1\n\n\nclass B:\n    def f(self, x):\n        return x > 1\n\n\n" +
		"def g(x):\n    def inner(y):\n        return y < 2\n    return inner(x) + 1\n"
	sites, err := pyProjectSites(context.Background(), map[string][]byte{"pkg/m.py": []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	groups := map[string]bool{}
	for _, s := range sites {
		groups[groupOf(s)] = true
	}
	want := []string{"pkg/m.py:A.f", "pkg/m.py:B.f", "pkg/m.py:g", "pkg/m.py:g.inner"}
	if got := slices.Sorted(maps.Keys(groups)); !slices.Equal(got, want) {
		t.Errorf("groups %v, want %v", got, want)
	}
}

// A test slow on the original runs only when the fast ones miss the
// mutant; when it alone catches it, it is the task's hidden test, and not
// among those its command skips.
func TestSlowTestsRunWhenTheFastMiss(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs a mutant in the sandbox")
	}
	files := calcFiles()
	files["calc/half.go"] = []byte("package calc\n\nfunc Half(x int) int {\n\tif x < 0 {\n\t\treturn 0\n\t}\n\treturn x / 2\n}\n")
	files["calc/half_test.go"] = []byte("package calc\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\n" +
		"func TestHalfSlow(t *testing.T) {\n\ttime.Sleep(150 * time.Millisecond)\n\tif Half(4) != 2 || Half(-4) != 0 {\n" +
		"\t\tt.Error(\"Half is wrong\")\n\t}\n}\n")
	m := &mutant{s: negated(t, files, "calc/half.go")[0]}
	orig := original{skipped: map[string]bool{"calc TestSlow": true}, slow: map[string]bool{"calc TestHalfSlow": true}}
	tryMutant(context.Background(), m, files, orig, "go test", t.TempDir(), 0, 30*time.Second, newTypeChecker(files))
	if m.reason != "" {
		t.Fatalf("the mutant only the slow test catches was dropped: %s", m.reason)
	}
	if !strings.Contains(string(m.t.hidden["calc/half_test.go"]), "func TestHalfSlow") || strings.Contains(m.t.test, "-skip") ||
		len(m.t.hidden) != 1 {
		t.Errorf("command %q, hidden %v", m.t.test, slices.Sorted(maps.Keys(m.t.hidden)))
	}
	// Caught by a fast test, the slow one is skipped by the task's command.
	m = &mutant{s: negated(t, files, "calc/clamp.go")[0]}
	tryMutant(context.Background(), m, files, orig, "go test", t.TempDir(), 1, 30*time.Second, newTypeChecker(files))
	if m.reason != "" || m.t.test != "go test -timeout 1m0s -skip '^(TestHalfSlow)$' ./calc" {
		t.Errorf("Clamp's mutant: %s, command %q", m.reason, m.t.test)
	}
}
