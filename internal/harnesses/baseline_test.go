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
