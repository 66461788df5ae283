// Package testtree writes file trees and task fixtures for tests, so that no
// test package keeps its own copy. The fixture is the Double task: a Go
// package whose Double adds one too many, in the anchor's task layout
// (task.toml, repo/, hidden/, reference/).
//
// It is test support: only _test.go files and other test helpers import it,
// and it imports only the standard library (the anchor's tests may not use it:
// the anchor imports nothing of ours).
package testtree

import (
	"maps"
	"os"
	"path/filepath"
	"testing"
)

// The Double task's files.
const (
	// GoMod is the go.mod of a project named m; DoubleTask names each
	// task's module after the task instead.
	GoMod = "module example.com/m\n\ngo 1.26\n"
	// Buggy is the starting m.go: Double(x) is 2x+1.
	Buggy = "package m\n\n// Double returns 2x.\nfunc Double(x int) int { return x + x + 1 }\n"
	// Fixed is the reference m.go.
	Fixed = "package m\n\n// Double returns 2x.\nfunc Double(x int) int { return x + x }\n"
	// TestTwo is the public test, also kept pristine in hidden/; it fails on Buggy.
	TestTwo = "package m\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) {\n\tif Double(2) != 4 {\n\t\tt.Fatal(Double(2))\n\t}\n}\n"
	// TestThree is the hidden test the agent never sees.
	TestThree = "package m\n\nimport \"testing\"\n\nfunc TestThree(t *testing.T) {\n\tif Double(3) != 6 {\n\t\tt.Fatal(Double(3))\n\t}\n}\n"
)

// Write writes files (slash-separated paths relative to root, with their
// contents) under root, creating folders as needed. It fails the test on
// any error.
func Write(tb testing.TB, root string, files map[string]string) {
	tb.Helper()
	for name, body := range files {
		WriteFile(tb, filepath.Join(root, filepath.FromSlash(name)), body)
	}
}

// WriteFile writes one file, creating its folder as needed. It fails the
// test on any error.
func WriteFile(tb testing.TB, path, body string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// DoubleTask returns the files of a Double task named id. changes replace
// files or add new ones; an empty value removes a file.
func DoubleTask(id string, changes map[string]string) map[string]string {
	files := map[string]string{
		"task.toml":            "prompt = \"Double is wrong in " + id + ". Fix it.\"\ntest = \"go test ./...\"\n",
		"repo/go.mod":          "module example.com/" + id + "\n\ngo 1.26\n",
		"repo/m.go":            Buggy,
		"repo/m_test.go":       TestTwo,
		"hidden/m_test.go":     TestTwo,
		"hidden/three_test.go": TestThree,
		"reference/m.go":       Fixed,
	}
	maps.Copy(files, changes)
	maps.DeleteFunc(files, func(_, body string) bool { return body == "" })
	return files
}

// AddTask writes DoubleTask(id, changes) to suite/split/id and returns that
// folder.
func AddTask(tb testing.TB, suite, split, id string, changes map[string]string) string {
	tb.Helper()
	dir := filepath.Join(suite, split, id)
	Write(tb, dir, DoubleTask(id, changes))
	return dir
}
