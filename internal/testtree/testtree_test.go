package testtree

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteMakesFolders(t *testing.T) {
	root := t.TempDir()
	Write(t, root, map[string]string{"a/b/c.txt": "c", "d.txt": ""})
	for name, want := range map[string]string{"a/b/c.txt": "c", "d.txt": ""} {
		if b, err := os.ReadFile(filepath.Join(root, name)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", name, b, err, want)
		}
	}
}

func TestWriteFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x", "y.txt")
	WriteFile(t, path, "y")
	if b, err := os.ReadFile(path); err != nil || string(b) != "y" {
		t.Errorf("y.txt = %q, %v", b, err)
	}
}

func TestDoubleTaskChanges(t *testing.T) {
	files := DoubleTask("x", map[string]string{"repo/NOTES.md": "n", "reference/m.go": "", "repo/m.go": "package m\n"})
	if files["repo/NOTES.md"] != "n" || files["repo/m.go"] != "package m\n" {
		t.Errorf("changes not applied: %v", files)
	}
	if _, ok := files["reference/m.go"]; ok {
		t.Error("an empty change did not remove the file")
	}
	if DoubleTask("y", nil)["reference/m.go"] != Fixed {
		t.Error("changes leaked into the next task")
	}
}

// TestDoubleTaskIsABug checks the fixture does what tests rely on: with
// hidden/ overlaid on repo/, the tests fail; with reference/ too, they pass.
func TestDoubleTaskIsABug(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	files := DoubleTask("double", nil)
	overlay := func(work, prefix string) {
		for name, body := range files {
			if rest, ok := strings.CutPrefix(name, prefix); ok {
				Write(t, work, map[string]string{rest: body})
			}
		}
	}
	gotest := func(work string) error {
		cmd := exec.Command("go", "test", "./...")
		cmd.Dir = work
		return cmd.Run()
	}
	work := t.TempDir()
	overlay(work, "repo/")
	overlay(work, "hidden/")
	if err := gotest(work); err == nil {
		t.Fatal("the tests pass on the buggy repo")
	}
	overlay(work, "reference/")
	if err := gotest(work); err != nil {
		t.Fatalf("the tests fail with the reference: %v", err)
	}
}
