package mine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"ratchet/anchor"
)

// isTest tells the files on the tests' side of a task, the ones that go to
// hidden/: Go and Python test files (the anchor's own rule), test data, and
// Python files under a top-level tests/ or test/ folder.
func isTest(name string) bool {
	base := path.Base(name)
	switch {
	case strings.HasSuffix(base, "_test.go"), strings.HasSuffix(base, "_test.py"), base == "conftest.py",
		strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py"):
		return true
	case slices.Contains(strings.Split(path.Dir(name), "/"), "testdata"):
		return true
	}
	first, _, _ := strings.Cut(name, "/")
	return (first == "tests" || first == "test") && strings.HasSuffix(name, ".py")
}

// isTestFile tells a file of tests proper: the ones a test command runs.
func isTestFile(name string) bool {
	base := path.Base(name)
	return strings.HasSuffix(base, "_test.go") || strings.HasSuffix(base, "_test.py") ||
		strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py")
}

// isCode tells the Go and Python source a task is about: not tests, not
// vendored, not dot folders.
func isCode(name string) bool {
	if !strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, ".py") || isTest(name) {
		return false
	}
	for _, part := range strings.Split(name, "/") {
		if part == "vendor" || strings.HasPrefix(part, ".") {
			return false
		}
	}
	return true
}

// runBox runs command in the anchor's sandbox on files laid out at
// /work/task, and returns the exit status and the output. An error means
// the sandbox did not start.
func runBox(ctx context.Context, files map[string][]byte, command string, timeout time.Duration) (int, []byte, bool, error) {
	warm, err := anchor.WarmCache()
	if err != nil {
		return -1, nil, false, err
	}
	tmp, err := os.MkdirTemp("", "ratchet-mine-box-")
	if err != nil {
		return -1, nil, false, err
	}
	defer os.RemoveAll(tmp)
	work := filepath.Join(tmp, "work")
	if err := anchor.WriteTree(filepath.Join(work, "task"), files); err != nil {
		return -1, nil, false, err
	}
	box := anchor.Box{Work: work, Cache: warm, Dir: "/work/task", Timeout: timeout, Args: []string{"sh", "-c", command}, Output: 4 << 20}
	return box.Run(ctx)
}

var requireLine = regexp.MustCompile(`(?m)^require\b`)

// vendorModules makes a Go tree self-contained for the offline sandbox: when
// its go.mod requires modules and it has no vendor/ folder, go mod vendor
// runs on the host (which may reach its module proxy) and the vendored
// files are added. It reports whether it vendored.
func vendorModules(ctx context.Context, files map[string][]byte) (bool, error) {
	if !requireLine.Match(files["go.mod"]) || files["vendor/modules.txt"] != nil {
		return false, nil
	}
	tmp, err := os.MkdirTemp("", "ratchet-mine-vendor-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(tmp)
	if err := anchor.WriteTree(tmp, files); err != nil {
		return false, err
	}
	cmd := exec.CommandContext(ctx, "go", "mod", "vendor")
	cmd.Dir = tmp
	cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "GOFLAGS=") || strings.HasPrefix(kv, "GOWORK=")
	}), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		return false, fmt.Errorf("go mod vendor: %s", first)
	}
	vendored, err := anchor.ReadTree(filepath.Join(tmp, "vendor"), false)
	for name, b := range vendored {
		files["vendor/"+name] = b
	}
	return true, err
}

var missingPackage = regexp.MustCompile(`No module named '([^']+)'|no required module provides package (\S+)|cannot find module providing package (\S+)|cannot find package "([^"]+)"`)

// diagnose names why a tree's tests fail on the tree's own code, from the
// output of running them, with the line that says so.
func diagnose(out []byte) (string, string) {
	if m := missingPackage.Find(out); m != nil {
		return reasonMissing, string(m)
	}
	if i := bytes.Index(out, []byte("requires go >=")); i >= 0 {
		line, _, _ := bytes.Cut(out[i:], []byte("\n"))
		return reasonNewerGo, string(line)
	}
	return reasonFailOnCommit, ""
}
