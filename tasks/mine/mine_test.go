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

// gitRepo is a repository a test builds commit by commit, with fixed dates
// so that its history is the same on every run.
type gitRepo struct {
	t   *testing.T
	dir string
	n   int
}

func newRepo(t *testing.T) *gitRepo {
	r := &gitRepo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *gitRepo) git(args ...string) string {
	r.t.Helper()
	date := fmt.Sprintf("2025-01-01T00:%02d:00Z", r.n)
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit writes files (an empty body deletes one) and commits them.
func (r *gitRepo) commit(msg string, files map[string]string) string {
	r.t.Helper()
	for name, body := range files {
		if body == "" {
			os.Remove(filepath.Join(r.dir, name))
			continue
		}
		testtree.WriteFile(r.t, filepath.Join(r.dir, name), body)
	}
	r.n++
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

const (
	sumBuggy = "package calc\n\n// Sum adds xs.\nfunc Sum(xs []int) int {\n\ts := 0\n\tfor i := 0; i < len(xs)-1; i++ {\n\t\ts += xs[i]\n\t}\n\treturn s\n}\n"
	sumFixed = "package calc\n\n// Sum adds xs.\nfunc Sum(xs []int) int {\n\ts := 0\n\tfor i := 0; i < len(xs); i++ {\n\t\ts += xs[i]\n\t}\n\treturn s\n}\n"
	sumTest0 = "package calc\n\nimport \"testing\"\n\nfunc TestSumEmpty(t *testing.T) {\n\tif Sum(nil) != 0 {\n\t\tt.Fatal(Sum(nil))\n\t}\n}\n"
	sumTest1 = sumTest0 + "\nfunc TestSumThree(t *testing.T) {\n\tif got := Sum([]int{1, 2, 3}); got != 6 {\n\t\tt.Fatal(got)\n\t}\n}\n"
	maxCode0 = "package calc\n\n// Max is the larger of a and b.\nfunc Max(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\n"
	maxCode1 = "package calc\n\n// Max is the larger of a and b.\nfunc Max(x, y int) int {\n\tif x > y {\n\t\treturn x\n\t}\n\treturn y\n}\n"
	maxCode2 = "package calc\n\n// Max is the larger of a and b.\nfunc Max(x, y int) int {\n\tif y > x {\n\t\treturn y\n\t}\n\treturn x\n}\n"
	maxTest  = "package calc\n\nimport \"testing\"\n\nfunc TestMaxNegative(t *testing.T) {\n\tif Max(-3, -5) != -3 {\n\t\tt.Fatal(Max(-3, -5))\n\t}\n}\n"
	clamp0   = "package calc\n\n// Clamp limits x to [lo, hi].\nfunc Clamp(x, lo, hi int) int {\n\tif x <= lo {\n\t\treturn lo + 1\n\t}\n\tif x > hi {\n\t\treturn hi\n\t}\n\treturn x\n}\n"
	clamp1   = "package calc\n\n// Clamp limits x to [lo, hi].\nfunc Clamp(x, lo, hi int) int {\n\tif x < lo {\n\t\treturn lo\n\t}\n\tif x > hi {\n\t\treturn hi\n\t}\n\treturn x\n}\n"
	clampT   = "package calc\n\nimport \"testing\"\n\nfunc TestClampLow(t *testing.T) {\n\tif Clamp(0, 0, 9) != 0 {\n\t\tt.Fatal(Clamp(0, 0, 9))\n\t}\n}\n"
	mean0    = "package stats\n\n// Mean is the average of xs.\nfunc Mean(xs []float64) float64 {\n\ts := 0.0\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s / float64(len(xs))\n}\n"
	mean1    = "package stats\n\n// Mean is the average of xs, 0 for none.\nfunc Mean(xs []float64) float64 {\n\tif len(xs) == 0 {\n\t\treturn 0\n\t}\n\ts := 0.0\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s / float64(len(xs))\n}\n"
	meanT0   = "package stats\n\nimport \"testing\"\n\nfunc TestMeanTwo(t *testing.T) {\n\tif Mean([]float64{1, 3}) != 2 {\n\t\tt.Fatal(Mean([]float64{1, 3}))\n\t}\n}\n"
	meanT1   = meanT0 + "\nfunc TestMeanNone(t *testing.T) {\n\tif Mean(nil) != 0 {\n\t\tt.Fatal(Mean(nil))\n\t}\n}\n"
	median0  = "package stats\n\nimport \"sort\"\n\n// Median is the middle value of xs.\nfunc Median(xs []float64) float64 {\n\ts := append([]float64(nil), xs...)\n\tsort.Float64s(s)\n\treturn s[len(s)/2]\n}\n"
	median1  = "package stats\n\nimport \"sort\"\n\n// Median is the middle value of xs.\nfunc Median(xs []float64) float64 {\n\ts := append([]float64(nil), xs...)\n\tsort.Float64s(s)\n\tif len(s)%2 == 0 {\n\t\treturn (s[len(s)/2-1] + s[len(s)/2]) / 2\n\t}\n\treturn s[len(s)/2]\n}\n"
	medianT  = "package stats\n\nimport \"testing\"\n\nfunc TestMedianEven(t *testing.T) {\n\tif Median([]float64{4, 1, 3, 2}) != 2.5 {\n\t\tt.Fatal(Median([]float64{4, 1, 3, 2}))\n\t}\n}\n"
	goMod    = "module example.com/calc\n\ngo 1.26\n"

	// What hidden/ keeps of sumTest1 and meanT1: the tests that fail on the parent.
	sumTestNew  = "package calc\n\nimport \"testing\"\n\nfunc TestSumThree(t *testing.T) {\n\tif got := Sum([]int{1, 2, 3}); got != 6 {\n\t\tt.Fatal(got)\n\t}\n}\n"
	meanTestNew = "package stats\n\nimport \"testing\"\n\nfunc TestMeanNone(t *testing.T) {\n\tif Mean(nil) != 0 {\n\t\tt.Fatal(Mean(nil))\n\t}\n}\n"
)

// goHistory builds the known history: four fixing commits (one of them a
// merge), a commit without code, two without tests, one whose new test
// already passes on the parent, one that needs a module that cannot be
// had, one whose message says nothing. It returns the commits of the four
// tasks, oldest first.
func goHistory(t *testing.T) (*gitRepo, []string) {
	r := newRepo(t)
	r.commit("Add the calc and stats packages", map[string]string{
		"go.mod": goMod, "calc/sum.go": sumBuggy, "calc/sum_test.go": sumTest0, "calc/max.go": maxCode0,
		"calc/clamp.go": clamp0, "stats/mean.go": mean0, ".ci.yml": "on: push\n", "stats/mean_test.go": meanT0, "stats/median.go": median0,
		"stats/slow_test.go": "package stats\n\nimport \"testing\"\n\nfunc TestSlow(t *testing.T) {\n\tt.Skip(\"run with -slow\")\n}\n",
	})
	sum := r.commit("Sum drops the last number\n\nSum of 1, 2 and 3 comes out as 3 instead of 6.\n\nSigned-off-by: T <t@example.com>",
		map[string]string{"calc/sum.go": sumFixed, "calc/sum_test.go": sumTest1})
	r.commit("Describe the packages in a README", map[string]string{"README.md": "calc and stats\n"})
	r.commit("Rename the parameters of Max", map[string]string{"calc/max.go": maxCode1})
	r.commit("Test Max on negative numbers", map[string]string{"calc/max.go": maxCode2, "calc/max_test.go": maxTest})
	r.commit("Round the mean with the decimal module", map[string]string{
		"go.mod":              goMod + "\nrequire example.com/decimal v1.0.0\n",
		"stats/round.go":      "package stats\n\nimport \"example.com/decimal\"\n\n// Round rounds x.\nfunc Round(x float64) float64 { return decimal.Round(x) }\n",
		"stats/round_test.go": "package stats\n\nimport \"testing\"\n\nfunc TestRound(t *testing.T) {\n\tif Round(1.4) != 1 {\n\t\tt.Fatal(Round(1.4))\n\t}\n}\n",
	})
	r.commit("Drop the decimal module again", map[string]string{"go.mod": goMod, "stats/round.go": "", "stats/round_test.go": ""})
	r.git("checkout", "-q", "-b", "mean")
	r.commit("handle empty input", map[string]string{"stats/mean.go": mean1, "stats/mean_test.go": meanT1})
	r.git("checkout", "-q", "main")
	r.commit("wip", map[string]string{"calc/clamp.go": clamp1, "calc/clamp_test.go": clampT})
	r.commit("Clamp is wrong again", map[string]string{"calc/clamp.go": clamp0, "calc/clamp_test.go": ""})
	r.n++
	r.git("merge", "-q", "--no-ff", "mean", "-m", "Merge branch 'mean'\n\nMean of an empty list panics or returns NaN; it should be 0.")
	merge := r.git("rev-parse", "HEAD")
	clamp := r.commit("Clamp returns lo+1 when x equals lo\n\nClamp(0, 0, 9) should be 0.", map[string]string{"calc/clamp.go": clamp1, "calc/clamp_test.go": clampT})
	median := r.commit("Median of an even count should average the two middle values", map[string]string{"stats/median.go": median1, "stats/median_test.go": medianT})
	return r, []string{sum, merge, clamp, median}
}

func TestMineGoHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("mines in the sandbox: about a minute")
	}
	t.Setenv("GOPROXY", "off") // the decimal module cannot be had
	r, want := goHistory(t)
	out := filepath.Join(t.TempDir(), "suite")
	var progress bytes.Buffer
	o := Options{Repo: r.dir, Out: out, Split: [3]int{60, 25, 15}, Jobs: 2, Progress: &progress}
	sum, err := Mine(context.Background(), o)
	if err != nil {
		t.Fatalf("%v\n%s", err, progress.String())
	}
	var b strings.Builder
	sum.Print(&b, "commits")
	t.Log(b.String())
	if sum.Seen != 12 || sum.New != 12 {
		t.Errorf("seen %d, new %d; want 12 and 12", sum.Seen, sum.New)
	}
	wantSkipped := map[string]int{reasonRoot: 1, reasonNoCode: 1, reasonNoTests: 3, reasonPassOnParent: 1, reasonMissing: 1, reasonMessage: 1}
	if fmt.Sprint(sum.Skipped) != fmt.Sprint(wantSkipped) {
		t.Errorf("skipped %v\nwant    %v", sum.Skipped, wantSkipped)
	}
	splits := []string{"train", "train", "holdout", "sealed"}
	for i, hash := range want {
		dirs, _ := filepath.Glob(filepath.Join(out, splits[i], hash[:10]+"-*"))
		if len(dirs) != 1 {
			t.Errorf("task %d (%s): %d folders in %s", i, hash[:10], len(dirs), splits[i])
			continue
		}
		task, err := anchor.LoadTask(dirs[0])
		if err != nil {
			t.Fatal(err)
		}
		toml, _ := os.ReadFile(filepath.Join(dirs[0], "task.toml"))
		// A mined fix is its own unit: two fixes of one package are two
		// witnesses, and a suite mined from one package must not be one.
		if strings.Contains(string(toml), "group =") || task.Group != task.ID {
			t.Errorf("task %d: grouped as %q, want its own unit:\n%s", i, task.Group, toml)
		}
		if strings.Contains(task.Prompt, "Signed-off-by") || strings.Contains(task.Prompt, "Merge branch") || strings.Contains(task.Prompt, "diff") {
			t.Errorf("task %d: prompt %q", i, task.Prompt)
		}
	}
	all, _ := filepath.Glob(filepath.Join(out, "*", "*", "task.toml"))
	if len(all) != 4 {
		t.Errorf("%d tasks written, want 4", len(all))
	}
	sumTask, _ := filepath.Glob(filepath.Join(out, "train", want[0][:10]+"-*"))
	if len(sumTask) == 1 {
		checkFiles(t, sumTask[0], map[string]string{
			"repo/calc/sum.go": sumBuggy, "repo/calc/sum_test.go": sumTest0, "hidden/calc/sum_test.go": sumTestNew,
			"reference/calc/sum.go": sumFixed, "hidden/calc/max_test.go": "", "repo/.git/HEAD": "", "repo/.ci.yml": "",
		})
	}
	// A public test that always skips would count as failed: the stats
	// tasks count only their changed tests.
	medianTask, _ := filepath.Glob(filepath.Join(out, "sealed", want[3][:10]+"-*"))
	if len(medianTask) == 1 {
		checkFiles(t, medianTask[0], map[string]string{"hidden/stats/median_test.go": medianT, "hidden/stats/slow_test.go": "", "hidden/stats/mean_test.go": ""})
	}
	// The tests that pass on the parent are cut: TestMeanTwo from the
	// changed file, and the pristine public files of calc whole (repo/
	// holds them).
	mergeTask, _ := filepath.Glob(filepath.Join(out, "train", want[1][:10]+"-*"))
	if len(mergeTask) == 1 {
		checkFiles(t, mergeTask[0], map[string]string{"hidden/stats/mean_test.go": meanTestNew, "repo/stats/mean_test.go": meanT0})
	}
	clampTask, _ := filepath.Glob(filepath.Join(out, "holdout", want[2][:10]+"-*"))
	if len(clampTask) == 1 {
		checkFiles(t, clampTask[0], map[string]string{"hidden/calc/clamp_test.go": clampT, "hidden/calc/sum_test.go": "", "hidden/calc/max_test.go": "",
			"repo/calc/sum_test.go": sumTest1, "repo/calc/max_test.go": maxTest})
	}
	var table bytes.Buffer
	results, err := tasks.Validate(context.Background(), out, 2, &table)
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range results {
		if res.Problem != "" {
			t.Errorf("written task %s/%s is bad:\n%s", res.Split, res.ID, table.String())
		}
		// A tree that changes nothing scores 0, the reference all.
		var up, ut, rp, rt int
		fmt.Sscanf(res.Untouched+" "+res.Reference, "%d/%d %d/%d", &up, &ut, &rp, &rt)
		if up != 0 || ut == 0 || rp != rt || rt != ut {
			t.Errorf("task %s/%s: untouched %s, reference %s; want 0/N and N/N", res.Split, res.ID, res.Untouched, res.Reference)
		}
	}

	// A second run adds nothing; a new commit adds one task.
	again, err := Mine(context.Background(), o)
	if err != nil || again.New != 0 || len(again.Written) != 0 {
		t.Errorf("second run: %+v, %v", again, err)
	}
	r.commit("Document Median", map[string]string{"stats/doc.go": "// Package stats has averages.\npackage stats\n"})
	again, err = Mine(context.Background(), o)
	if err != nil || again.New != 1 || again.Skipped[reasonNoTests] != 1 || len(again.Written) != 0 {
		t.Errorf("third run: %+v, %v", again, err)
	}
	if all, _ := filepath.Glob(filepath.Join(out, "*", "*", "task.toml")); len(all) != 4 {
		t.Errorf("%d tasks after the later runs, want 4", len(all))
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".ratchet-mine-*")); len(left) != 0 {
		t.Errorf("staging left behind: %v", left)
	}
}

// checkFiles checks files of a task folder: "" means the file must not be
// there.
func checkFiles(t *testing.T, dir string, want map[string]string) {
	t.Helper()
	for _, name := range slices.Sorted(maps.Keys(want)) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		switch {
		case want[name] == "" && err == nil:
			t.Errorf("%s should not be there", name)
		case want[name] != "" && string(b) != want[name]:
			t.Errorf("%s = %q, want %q (%v)", name, b, want[name], err)
		}
	}
}

func TestMinePython(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("mines in the sandbox")
	}
	r := newRepo(t)
	r.commit("Add the words module", map[string]string{
		"words.py":            "def count(text):\n    return len(text.split(' '))\n",
		"tests/test_words.py": "from words import count\n\n\ndef test_one():\n    assert count('a') == 1\n",
	})
	fix := r.commit("count is wrong for runs of spaces\n\ncount('a  b') says 3.", map[string]string{
		"words.py":            "def count(text):\n    return len(text.split())\n",
		"tests/test_words.py": "from words import count\n\n\ndef test_one():\n    assert count('a') == 1\n\n\ndef test_spaces():\n    assert count('a  b') == 2\n",
	})
	r.commit("Count words with the frobnicate package", map[string]string{
		"words.py":            "import frobnicate_xyz\n\n\ndef count(text):\n    return frobnicate_xyz.count(text)\n",
		"tests/test_words.py": "import frobnicate_xyz\nfrom words import count\n\n\ndef test_one():\n    assert count('a') == 1\n",
	})
	out := filepath.Join(t.TempDir(), "suite")
	sum, err := Mine(context.Background(), Options{Repo: r.dir, Out: out, Split: [3]int{60, 25, 15}, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Written["train"] != 1 || sum.Skipped[reasonMissing] != 1 || sum.Skipped[reasonRoot] != 1 {
		t.Errorf("summary %+v", sum)
	}
	dirs, _ := filepath.Glob(filepath.Join(out, "train", fix[:10]+"-*"))
	if len(dirs) != 1 {
		t.Fatalf("no task for %s", fix[:10])
	}
	toml, _ := os.ReadFile(filepath.Join(dirs[0], "task.toml"))
	if !strings.Contains(string(toml), `test = "python3 -m pytest -q -p no:cacheprovider tests/test_words.py"`) || strings.Contains(string(toml), "group =") {
		t.Errorf("task.toml:\n%s", toml)
	}
	// Fail-to-pass, as Go's: test_one passes on the parent and is set aside,
	// so a tree that changes nothing scores 0 and the fix 1.
	hidden, _ := os.ReadFile(filepath.Join(dirs[0], "hidden", "tests", "test_words.py"))
	if !strings.Contains(string(hidden), "def passes_on_parent_test_one(") || !strings.Contains(string(hidden), "def test_spaces(") {
		t.Errorf("hidden/tests/test_words.py:\n%s", hidden)
	}
	if r := tasks.Check(context.Background(), dirs[0], filepath.Join(t.TempDir(), "check")); r.Problem != "" || !strings.HasPrefix(r.Untouched, "0/") {
		t.Errorf("the mined Python task: problem %q, untouched %q; want none and 0/N", r.Problem, r.Untouched)
	}
}

func TestPytestVerdicts(t *testing.T) {
	out := []byte("..F\n=== short test summary info ===\nPASSED tests/test_a.py::test_one\n" +
		"PASSED tests/test_a.py::TestK::test_two[1]\nFAILED tests/test_a.py::TestK::test_two[2] - assert 1 == 2\n" +
		"ERROR tests/test_b.py::test_three - fixture\nPASSED tests/test_b.py::test_four[a b]\n")
	passed, failed := pytestVerdicts(out)
	want := map[string]bool{"tests/test_a.py::test_one": true, "tests/test_a.py::test_two": true, "tests/test_b.py::test_four": true}
	if !maps.Equal(passed, want) || !failed["tests/test_a.py::test_two"] || !failed["tests/test_b.py::test_three"] || len(failed) != 2 {
		t.Errorf("passed %v, failed %v", passed, failed)
	}
}

func TestMineRefusesBadInput(t *testing.T) {
	ctx := context.Background()
	parent := t.TempDir()
	out := filepath.Join(parent, "suite")
	o := func(repo string) Options { return Options{Repo: repo, Out: out, Split: [3]int{60, 25, 15}, Jobs: 1} }
	nothingWritten := func(what string) {
		t.Helper()
		if entries, _ := os.ReadDir(parent); len(entries) != 0 {
			t.Errorf("%s: %d entries written beside the suite", what, len(entries))
		}
	}

	if _, err := Mine(ctx, o(t.TempDir())); err == nil || !strings.Contains(err.Error(), "is not a git repository") {
		t.Errorf("plain folder: %v", err)
	}
	nothingWritten("plain folder")

	r := newRepo(t)
	r.commit("Start the project with a README", map[string]string{"README.md": "a\n"})
	r.commit("Say more in the README", map[string]string{"README.md": "a b\n"})
	r.commit("Add a Go file without tests", map[string]string{"go.mod": goMod, "a.go": "package calc\n"})
	shallow := filepath.Join(t.TempDir(), "shallow")
	if out, err := exec.Command("git", "clone", "-q", "--depth", "1", "file://"+r.dir, shallow).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, err := Mine(ctx, o(shallow)); err == nil || !strings.Contains(err.Error(), "shallow clone") || !strings.Contains(err.Error(), "--unshallow") {
		t.Errorf("shallow clone: %v", err)
	}
	nothingWritten("shallow clone")

	_, err := Mine(ctx, o(r.dir))
	if err == nil || !strings.Contains(err.Error(), "no commit of") || !strings.Contains(err.Error(), "tasks mutate") {
		t.Errorf("no usable commit: %v", err)
	}
	nothingWritten("no usable commit")
	if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "3 seen: 1 changes code but no test file, 1 changes no Go or Python code or tests, 1 the first commit") {
		t.Errorf("the error does not say why: %v", err)
	}

	testtree.Write(t, out, map[string]string{"train/x/task.toml": "prompt = \"x\"\ntest = \"true\"\n"})
	if _, err := Mine(ctx, o(r.dir)); err == nil || !strings.Contains(err.Error(), "already holds another suite") {
		t.Errorf("another suite: %v", err)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("another suite: %d entries beside it", len(entries))
	}
	if entries, _ := os.ReadDir(out); len(entries) != 1 {
		t.Errorf("another suite: it now holds %d entries", len(entries))
	}
	testtree.Write(t, out, map[string]string{stateFile: `{"kind": "mine", "root": "0123", "seen": {}}`})
	if _, err := Mine(ctx, o(r.dir)); err == nil || !strings.Contains(err.Error(), "from another repository") {
		t.Errorf("a suite mined from another repository: %v", err)
	}
}

func TestPromptOf(t *testing.T) {
	for msg, want := range map[string]string{
		"Fix Sum\n\nIt drops the last one.\n\nSigned-off-by: A <a@b>\n": "Fix Sum\n\nIt drops the last one.\n",
		"Merge pull request #12 from a/b\n\nParse dates in UTC":         "Parse dates in UTC\n",
		"wip":                               "",
		"fix typo":                          "",
		"Merge branch 'x'":                  "",
		"Update":                            "",
		"Handle an empty config file":       "Handle an empty config file\n",
		"Fix monotonicity in UUIDv7 (#150)": "Fix monotonicity in UUIDv7\n",
		"Parse dates in UTC, fixes #196":    "Parse dates in UTC,\n",
		"Drop the last byte (see google/uuid#12) on overflow": "Drop the last byte on overflow\n",
		"Trim the key\n\nhttps://github.com/a/b/issues/7":     "Trim the key\n",
		"Fix Close() on a nil reader (#9)":                    "Fix Close() on a nil reader\n",
	} {
		got, ok := promptOf(msg)
		if got != want || ok != (want != "") {
			t.Errorf("promptOf(%q) = %q, %v; want %q", msg, got, ok, want)
		}
	}
}

// TestRefactorsAndLeaksMakeNoTask: a message that renames, refactors or
// upgrades is no bug report; one that quotes a line the fix added holds
// its answer.
func TestRefactorsAndLeaksMakeNoTask(t *testing.T) {
	for msg, want := range map[string]bool{
		"Rename {NDiff,NSame} as {NumDiff,NumSame}":     true,
		"Use any alias instead of interface{}":          true,
		"Bump the go version to 1.22":                   true,
		"refactor: split the parser":                    true,
		"Fix textual printing of byte slices":           false,
		"Reject a key that renames the column silently": false,
	} {
		p, _ := promptOf(msg)
		if got := refactor.MatchString(p); got != want {
			t.Errorf("%q: refactor %v, want %v", msg, got, want)
		}
	}
	fix := task{repo: map[string][]byte{"m.go": []byte("package m\n\nfunc F(x []int) int {\n\treturn x[1]\n}\n")},
		reference: map[string][]byte{"m.go": []byte("package m\n\nfunc F(x []int) int {\n\tif len(x) == 0 {\n\t\treturn 0\n\t}\n\treturn x[1]\n}\n")}}
	for prompt, want := range map[string]bool{
		"F panics on an empty slice.":                                  false,
		"Special case the edge case by checking if len(x) == 0 { in F": true,
		"F: return x[1] is wrong for short slices":                     false, // a line of the parent too
		"Guard F   with  if len(x)  ==  0 {  and return early":         true,
	} {
		fix.prompt = prompt
		if got := quotesFix(fix); got != want {
			t.Errorf("%q quotes the fix: %v, want %v", prompt, got, want)
		}
	}
}

func TestTomlStringRoundTrips(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "train", "x")
	for _, s := range []string{"one line", "two\nlines\n", "quotes ''' and \"\"\" and \\ \n", "ends in '\n", "tab\tand\r\n"} {
		testtree.WriteFile(t, filepath.Join(dir, "task.toml"), "prompt = "+tasks.TOMLString(s)+"\ntest = "+tasks.TOMLString("go test ./...")+"\n")
		task, err := anchor.LoadTask(dir)
		if err != nil || task.Prompt != s {
			t.Errorf("%q came back as %q (%v)", s, task.Prompt, err)
		}
	}
}

// TestMineBoundsARun: --since and --max-commits bound which commits a run
// looks at (the newest N of those from the date on); the others are not
// marked seen.
func TestMineBoundsARun(t *testing.T) {
	r := newRepo(t)
	for i := range 6 {
		r.commit(fmt.Sprintf("notes %d", i), map[string]string{"NOTES.md": fmt.Sprintf("note %d\n", i)})
	}
	for _, c := range []struct {
		since time.Time
		max   int
		want  int
	}{{time.Time{}, 0, 6}, {time.Time{}, 2, 2}, {time.Date(2025, 1, 1, 0, 4, 0, 0, time.UTC), 0, 3},
		{time.Date(2025, 1, 1, 0, 4, 0, 0, time.UTC), 1, 1}, {time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), 0, 0}} {
		sum, _ := Mine(context.Background(), Options{Repo: r.dir, Out: filepath.Join(t.TempDir(), "suite"),
			Split: [3]int{60, 25, 15}, Jobs: 1, Since: c.since, MaxCommits: c.max})
		if sum.New != c.want {
			t.Errorf("since %s, max %d: %d commits looked at, want %d", c.since.Format(time.DateTime), c.max, sum.New, c.want)
		}
	}
}
