package tasks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The group report counts groups per split and warns of a group whose
// tasks lie in more than one split; tasks without a group are their own.
func TestGroupReportWarnsOfSharedGroups(t *testing.T) {
	suite := t.TempDir()
	add := func(split, id, group string) string {
		dir := filepath.Join(suite, split, id)
		toml := "prompt = \"x\"\ntest = \"go test ./...\"\n"
		if group != "" {
			toml += "group = \"" + group + "\"\n"
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "task.toml"), []byte(toml), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	dirs := []string{add("train", "sum-a", "sum"), add("train", "sum-b", "sum"), add("train", "lone", ""),
		add("holdout", "max-a", "max"), add("holdout", "max-b", "max"), add("sealed", "odd", "")}
	got := GroupReport(dirs)
	if !strings.Contains(got, "groups: train 2 in 3 tasks, holdout 1 in 2 tasks, sealed 1 in 1 tasks\n") || strings.Contains(got, "warning") {
		t.Errorf("disjoint groups:\n%s", got)
	}
	dirs = append(dirs, add("holdout", "sum-c", "sum"), add("sealed", "sum-d", "sum"))
	got = GroupReport(dirs)
	if !strings.Contains(got, "holdout 2 in 3 tasks") || !strings.Contains(got, "warning: 1 group(s) have tasks in more than one split") ||
		!strings.Contains(got, "sum (train 2, holdout 1, sealed 1)") || strings.Contains(got, "max (") {
		t.Errorf("a group in three splits:\n%s", got)
	}
}

// The bundled suite's tasks carry their kind (the id up to its first dash)
// as their group.
func TestBundledSuiteIsGroupedByKind(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("example", "*", "*"))
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "task.toml"))
		kind, _, _ := strings.Cut(filepath.Base(d), "-")
		if err == nil && !strings.Contains(string(b), "\ngroup = \""+kind+"\"\n") {
			t.Errorf("%s: task.toml does not name group %q", d, kind)
		}
	}
	got := GroupReport(dirs)
	t.Log(got)
	if !strings.Contains(got, "groups: train 41 in 146 tasks, holdout 41 in 94 tasks, sealed 32 in 32 tasks") {
		t.Errorf("bundled suite:\n%s", got)
	}
}
