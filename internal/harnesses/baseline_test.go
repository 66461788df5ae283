package harnesses

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"ratchet/harness/core"
	"ratchet/harness/tools"
)

// These check the hand-written baseline, from outside the harness: the
// harness's own tests, which the evolver's candidates must pass, hold no
// baseline choice, so an evolved read_file or prompt may differ.

// The baseline's read_file reaches the middle of a file far longer than
// any cut of a tool result, by line range, and says which lines it shows.
func TestBaselineReachesTheMiddleOfALongFile(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&b, "line %d of a long generated file\n", i)
	}
	if err := os.WriteFile(filepath.Join(root, "long.txt"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	read := tools.ReadFile()
	ctx := &core.Context{Root: root, Name: "read_file"}
	got := read.Run(map[string]any{"path": "long.txt", "start_line": 2500.0, "end_line": 2502.0}, ctx)
	want := "[lines 2500-2502 of 5000]\nline 2500 of a long generated file\nline 2501 of a long generated file\n" +
		"line 2502 of a long generated file\n"
	if got != want {
		t.Errorf("lines 2500-2502:\n%q\nwant\n%q", got, want)
	}
	if got := read.Run(map[string]any{"path": "long.txt", "start_line": 4999.0}, ctx); !strings.HasPrefix(got, "[lines 4999-5000 of 5000]\n") {
		t.Errorf("from line 4999 to the end: %.80q", got)
	}
	if got := read.Run(map[string]any{"path": "long.txt", "start_line": 6000.0}, ctx); !strings.HasPrefix(got, "error:") ||
		!strings.Contains(got, "5000 lines") {
		t.Errorf("past the end: %q; want an error naming the length", got)
	}
	if got := read.Run(map[string]any{"path": "long.txt"}, ctx); got != b.String() {
		t.Errorf("without a range the whole file is %d bytes, not %d", len(got), b.Len())
	}
}

// The suites hold Go, Python and mined tasks from real repositories: the
// baseline prompt names no single language.
func TestBaselinePromptNamesNoLanguage(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "harness", "system_prompt.md"))
	if err != nil {
		t.Fatal(err)
	}
	lang := regexp.MustCompile(`\b(Go|Golang|Python|JavaScript|TypeScript|Rust|Java|C\+\+|Ruby)\b`)
	if m := lang.FindString(string(b)); m != "" {
		t.Errorf("the baseline prompt names %q:\n%s", m, b)
	}
	if !strings.Contains(string(b), "start_line") {
		t.Errorf("the baseline prompt does not say how to read part of a long file:\n%s", b)
	}
}

// The baseline's run_tests sends the model no durations: two runs of one
// test command whose runners print other times (go test's package and test
// times, pytest's total) give the same bytes, so a run that called the
// tests still replays and its later requests still meet the reply cache.
// The test names, counts, failures and exit status are all kept.
func TestBaselineRunTestsSendsNoDurations(t *testing.T) {
	run := tools.RunTests()
	out := func(secs string) string {
		root := t.TempDir()
		report := strings.ReplaceAll("=== RUN   TestSum\n--- FAIL: TestSum (@)\n    sum_test.go:9: Sum = 5, want 6\n"+
			"FAIL\nFAIL\texample.com/sum\t@\nok  \texample.com/sum/util\t@\n"+
			"=========== 1 failed, 3 passed in @ ===========\n=========== 4 passed in @ (0:01:05) ===========\n", "@", secs)
		if err := os.WriteFile(filepath.Join(root, "report.txt"), []byte(report), 0o644); err != nil {
			t.Fatal(err)
		}
		return run.Run(map[string]any{}, &core.Context{Root: root, Name: "run_tests", TestCommand: "cat report.txt; exit 1"})
	}
	first, second := out("0.004s"), out("65.50s")
	if first != second || strings.Contains(first, "0.004s") {
		t.Errorf("two runs differing only in durations gave different output:\n%s\n---\n%s", first, second)
	}
	for _, kept := range []string{"--- FAIL: TestSum\n", "Sum = 5, want 6", "FAIL\texample.com/sum\n", "ok  \texample.com/sum/util\n",
		"1 failed, 3 passed =", "4 passed =", "exit status 1"} {
		if !strings.Contains(first, kept) {
			t.Errorf("run_tests lost %q:\n%s", kept, first)
		}
	}
}
