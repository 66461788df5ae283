package tasks

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ratchet/internal/testtree"
)

// pub is the public test: it passes on the bug, so only the hidden TestTwo
// tells a fixed Double from a broken one.
const pub = "package m\n\nimport \"testing\"\n\nfunc TestZero(t *testing.T) {\n\tif Double(0) > 1 {\n\t\tt.Fatal(Double(0))\n\t}\n}\n"

// task writes a Double task; every task has the same prompt, so two tasks
// can have the same files.
func task(t *testing.T, suite, split, id string, extra map[string]string) {
	t.Helper()
	files := map[string]string{
		"task.toml":             "prompt = \"fix Double\"\ntest = \"go test ./...\"\n",
		"repo/go.mod":           testtree.GoMod,
		"repo/m_test.go":        pub,
		"hidden/m_test.go":      pub,
		"hidden/double_test.go": testtree.TestTwo,
		"hidden/three_test.go":  "",
	}
	maps.Copy(files, extra)
	testtree.AddTask(t, suite, split, id, files)
}

func TestValidateFindsBadTasks(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("validates in the anchor's sandboxes: slow; run without -short")
	}
	suite := t.TempDir()
	task(t, suite, "train", "good", nil)
	task(t, suite, "train", "broken-reference", map[string]string{"reference/m.go": "package m\n\nfunc Double(x int) int { return 3 * x }\n"})
	task(t, suite, "holdout", "nothing-to-fix", map[string]string{"repo/m.go": "package m\n\nfunc Double(x int) int { return 2 * x }\n"})
	task(t, suite, "holdout", "copy-of-hidden", map[string]string{"repo/extra_test.go.txt": testtree.TestTwo})
	task(t, suite, "sealed", "names-hidden-test", map[string]string{"repo/NOTES.md": "TestTwo checks Double(2)\n"})
	task(t, suite, "sealed", "no-toml", map[string]string{"task.toml": ""})
	task(t, suite, "sealed", "no-reference", map[string]string{"reference/m.go": ""})
	task(t, suite, "sealed", "same-as-good", nil)
	task(t, suite, "sealed", "chained", map[string]string{"task.toml": "prompt = \"fix Double\"\ntest = \"go test -run Zero . && go test .\"\n"})
	task(t, suite, "sealed", "prompt-names-hidden", map[string]string{"task.toml": "prompt = \"fix Double so that TestTwo passes\"\ntest = \"go test ./...\"\n"})
	task(t, suite, "sealed", "public-not-restored", map[string]string{"hidden/m_test.go": ""})
	task(t, suite, "sealed", "no-go-mod", map[string]string{"repo/go.mod": ""})
	var out bytes.Buffer
	results, err := Validate(context.Background(), suite, 2, &out)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"good":                "",
		"broken-reference":    "the reference does not pass",
		"nothing-to-fix":      "already passes",
		"copy-of-hidden":      "is a copy of hidden/double_test.go",
		"names-hidden-test":   "names the hidden test TestTwo",
		"no-toml":             "task.toml",
		"no-reference":        "no reference",
		"same-as-good":        "same files as train/good",
		"chained":             "chains go test with &&",
		"prompt-names-hidden": "the prompt names the hidden test TestTwo",
		"public-not-restored": "", // the anchor restores repo/'s tests; only hidden ones count
		"no-go-mod":           "repo/ has no go.mod",
	}
	if len(results) != len(want) {
		t.Fatalf("got %d results:\n%s", len(results), out.String())
	}
	for _, r := range results {
		w := want[r.ID]
		if (w == "") != (r.Problem == "") || !strings.Contains(r.Problem, w) {
			t.Errorf("%s: problem %q, want %q", r.ID, r.Problem, w)
		}
	}
	if !strings.Contains(out.String(), "BAD: the reference does not pass") || !strings.Contains(out.String(), "good") {
		t.Errorf("table:\n%s", out.String())
	}
	if _, err := Validate(context.Background(), t.TempDir(), 1, &out); err == nil {
		t.Error("an empty folder validated")
	}
}

// A suite the anchor or the gate cannot use is refused as a whole, with
// what to add: only sealed/ tasks, or fewer holdout groups than the fewest
// changed units the sign test can accept on (5 at alpha 0.05). Tasks of one
// group count once, however many there are.
func TestSuiteProblems(t *testing.T) {
	sealedOnly := t.TempDir()
	task(t, sealedOnly, "sealed", "a", nil)
	if p := strings.Join(SuiteProblems(sealedOnly, 0.05), "\n"); !strings.Contains(p, "no train tasks") ||
		!strings.Contains(p, "no holdout tasks: the gate accepts only on holdout/; add tasks of at least 5 groups") {
		t.Errorf("only sealed/: %q", p)
	}
	small := t.TempDir()
	task(t, small, "train", "a", nil)
	for _, id := range []string{"h1", "h2", "h3"} {
		task(t, small, "holdout", id, nil)
	}
	if p := strings.Join(SuiteProblems(small, 0.05), "\n"); !strings.Contains(p, "3 holdout tasks in 3 group(s)") ||
		!strings.Contains(p, "needs at least 5") || !strings.Contains(p, "add tasks of at least 2 more groups") {
		t.Errorf("3 holdout tasks: %q", p)
	}
	for _, id := range []string{"h4", "h5"} {
		task(t, small, "holdout", id, nil)
	}
	if p := SuiteProblems(small, 0.05); len(p) != 0 {
		t.Errorf("1 train and 5 holdout tasks: %q", p)
	}
	oneKind := t.TempDir() // a mined suite as the miner used to group it: every task of one package
	task(t, oneKind, "train", "a", nil)
	for i := range 29 {
		task(t, oneKind, "holdout", fmt.Sprintf("h%02d", i), map[string]string{
			"task.toml": "prompt = \"fix Double\"\ntest = \"go test ./...\"\ngroup = \"pkg\"\n"})
	}
	if p := strings.Join(SuiteProblems(oneKind, 0.05), "\n"); !strings.Contains(p, "29 holdout tasks in 1 group(s)") ||
		!strings.Contains(p, "can never accept") {
		t.Errorf("29 holdout tasks of one group: %q", p)
	}
}

// Before any run, the validator says what the gate can see: a suite of a
// few groups misses a +10-point gain more often than not, a suite of many
// independent tasks sees it.
func TestDetectionWarnsASuiteTooSmallForTheGain(t *testing.T) {
	for _, c := range []struct {
		holdout int
		weak    bool
	}{{8, true}, {300, false}} {
		dir := t.TempDir()
		for i := range c.holdout {
			for _, split := range []string{"train", "holdout"} {
				os.MkdirAll(filepath.Join(dir, split, fmt.Sprintf("t%03d", i)), 0o755)
				os.WriteFile(filepath.Join(dir, split, fmt.Sprintf("t%03d", i), "task.toml"),
					[]byte("prompt = \"p\"\ntest = \"true\"\n"), 0o644)
			}
		}
		line, weak, err := Detection(context.Background(), dir, 0.05, 0.10)
		if err != nil || weak != c.weak || !strings.Contains(line, fmt.Sprintf("%d holdout groups", c.holdout)) {
			t.Errorf("%d holdout tasks: weak %v, want %v (%v): %s", c.holdout, weak, c.weak, err, line)
		}
	}
}
