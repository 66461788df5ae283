package evolve

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEditableGuide: EDITABLE.md names every file of the manifest and the
// values each sets, read from the harness it is given, so a changed value
// shows as changed; a file that is not there is an error, not a gap.
func TestEditableGuide(t *testing.T) {
	harness := filepath.Join(t.TempDir(), "harness")
	if err := copyDir(filepath.Join(repoRoot(), "harness"), harness); err != nil {
		t.Fatal(err)
	}
	budget := filepath.Join(harness, "middleware", "token_budget.go")
	src, _ := os.ReadFile(budget)
	raised := regexp.MustCompile(`maxSteps\s*=\s*\d+`).ReplaceAllString(string(src), "maxSteps = 47")
	if err := os.WriteFile(budget, []byte(raised), 0o644); err != nil {
		t.Fatal(err)
	}
	guide, err := editableGuide(harness)
	if err != nil {
		t.Fatal(err)
	}
	manifest, _ := os.ReadFile(filepath.Join(harness, "manifest.toml"))
	names := regexp.MustCompile(`"([^"]+)"`).FindAllStringSubmatch(string(manifest), -1)
	if len(names) != 9 {
		t.Fatalf("the manifest lists %d files", len(names))
	}
	for _, n := range names {
		if !strings.Contains(string(guide), "## harness/"+n[1]+"\n") {
			t.Errorf("EDITABLE.md has no section for %s", n[1])
		}
	}
	for _, want := range []string{"maxSteps = 47", "Name: \"read_file\"", "Description:", "Parameters:"} {
		if !strings.Contains(string(guide), want) {
			t.Errorf("EDITABLE.md lacks %q:\n%s", want, guide)
		}
	}
	os.Remove(filepath.Join(harness, "memory", "memory.go"))
	if _, err := editableGuide(harness); err == nil || !strings.Contains(err.Error(), "memory/memory.go") {
		t.Errorf("a missing editable file: %v", err)
	}
}
