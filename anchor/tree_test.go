package anchor

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestSnapshotHashIsStable(t *testing.T) {
	e := newEnv(t)
	dir := copyHarness(t)
	h1, err := e.a.Snapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := e.a.Snapshot(dir)
	if h1 != h2 {
		t.Fatalf("two snapshots of the same tree differ: %s %s", h1, h2)
	}
	// mtimes and modes do not matter.
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	filepath.Walk(dir, func(p string, _ os.FileInfo, _ error) error { return os.Chtimes(p, old, old) })
	os.Chmod(filepath.Join(dir, "main.go"), 0o755)
	if h3, _ := e.a.Snapshot(dir); h3 != h1 {
		t.Errorf("mtime/mode change moved the hash")
	}
	// Content does.
	os.WriteFile(filepath.Join(dir, "system_prompt.md"), []byte("changed\n"), 0o644)
	if h4, _ := e.a.Snapshot(dir); h4 == h1 {
		t.Errorf("content change kept the hash")
	}
	// A stored snapshot extracts to the same hash.
	out := filepath.Join(t.TempDir(), "x")
	if err := e.a.extract(h1, out); err != nil {
		t.Fatal(err)
	}
	if h5, _ := e.a.Snapshot(out); h5 != h1 {
		t.Errorf("extracted snapshot hashes to %s, want %s", h5, h1)
	}
	if _, err := e.a.Snapshot(t.TempDir()); err == nil {
		t.Error("an empty folder was snapshotted")
	}
	os.Symlink("/etc/passwd", filepath.Join(dir, "link"))
	if _, err := e.a.Snapshot(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a symlink was snapshotted: %v", err)
	}
}

func TestManifest(t *testing.T) {
	e := newEnv(t)
	h, _ := e.a.Snapshot(harnessDir(t))
	files, err := e.a.readSnapshot(h)
	if err != nil {
		t.Fatal(err)
	}
	got := Manifest(files)
	want := []string{"system_prompt.md", "tools/read_file.go", "tools/write_file.go", "tools/run_tests.go", "tools/list_dir.go",
		"middleware/retry.go", "middleware/truncation.go", "middleware/token_budget.go", "memory/memory.go"}
	if !slices.Equal(got, want) {
		t.Errorf("manifest = %v, want %v", got, want)
	}
	for _, f := range got {
		if files[f] == nil {
			t.Errorf("manifest lists %s, which the harness does not have", f)
		}
	}
	odd := Manifest(map[string][]byte{"manifest.toml": []byte("# editable = [\"x\"]\neditable = [\n \"a.go\", # \"b.go\"\n\"c.md\"]\nother = [\"d\"]\n")})
	if !slices.Equal(odd, []string{"a.go", "c.md"}) {
		t.Errorf("manifest with comments = %v", odd)
	}
}

func TestTaskHashCoversEveryFile(t *testing.T) {
	e := newEnv(t)
	dir := addTask(t, e.suite, "train", "hash-task")
	h1, _ := hashOfDir(dir)
	for _, f := range []string{"hidden/sum_more_test.go", "reference/sum.go", "repo/sum.go", "task.toml"} {
		b, _ := os.ReadFile(filepath.Join(dir, f))
		os.WriteFile(filepath.Join(dir, f), append(b, ' '), 0o644)
		h2, _ := hashOfDir(dir)
		if h2 == h1 {
			t.Errorf("changing %s kept the task hash", f)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	if h3, _ := hashOfDir(dir); h3 != h1 {
		t.Error("restoring the files did not restore the hash")
	}
}

func TestCopyTreeNeverFollowsLinks(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "out")
	outside := t.TempDir()
	writeFiles(t, src, map[string]string{"a.go": "package a", "sub/b.go": "package b"})
	writeFiles(t, outside, map[string]string{"secret": "s3cret"})
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(src, "link"))
	os.Symlink(outside, filepath.Join(src, "dirlink"))
	if err := copyTree(src, dst); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dst, "link")); err == nil {
		t.Error("a symlink was copied")
	}
	if _, err := os.Lstat(filepath.Join(dst, "dirlink")); err == nil {
		t.Error("a directory symlink was copied")
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "sub/b.go")); string(b) != "package b" {
		t.Error("regular files were not copied")
	}
	// An overlay onto a tree replaces files without following a link there.
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dst, "sub", "c.go"))
	writeFiles(t, src, map[string]string{"sub/c.go": "package c"})
	os.Remove(filepath.Join(src, "link"))
	os.Remove(filepath.Join(src, "dirlink"))
	os.RemoveAll(filepath.Join(dst, "a.go"))
	os.RemoveAll(filepath.Join(dst, "sub", "b.go"))
	if err := copyTree(src, dst); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "secret")); string(b) != "s3cret" {
		t.Error("the overlay wrote through a symlink")
	}
	fifo := filepath.Join(src, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := copyTree(src, filepath.Join(t.TempDir(), "o2")); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a FIFO was copied: %v", err)
	}
	os.Remove(fifo)
	writeFiles(t, src, map[string]string{"big": strings.Repeat("x", 2<<20)})
	defer func(old int) { maxTree = old }(maxTree)
	maxTree = 1 << 20
	if err := copyTree(src, filepath.Join(t.TempDir(), "o3")); err == nil {
		t.Error("a tree over the size limit was copied")
	}
}

func hashOfDir(dir string) (string, error) {
	files, err := ReadTree(dir, true)
	return HashOf(files), err
}

func TestSnapshotCommandOnAFreshHome(t *testing.T) {
	var out strings.Builder
	home := filepath.Join(t.TempDir(), "fresh")
	if err := run(ctx(), []string{"snapshot", "--home", home, harnessDir(t)}, &out); err != nil {
		t.Fatal(err)
	}
	want, _ := hashOfDir(harnessDir(t))
	if strings.TrimSpace(out.String()) != want {
		t.Errorf("anchor snapshot printed %q, want %s", out.String(), want)
	}
	out.Reset()
	if err := run(ctx(), []string{"snapshot", "--home", home, filepath.Join(home, "missing")}, &out); err == nil || out.Len() != 0 {
		t.Errorf("a missing folder: %v, printed %q", err, out.String())
	}
}

// WriteTree is the one writer of task trees (the anchor, the importer, the
// miner, the doors): a name that climbs out or is absolute is refused
// before anything is written, and a link already in the destination, to a
// folder outside, is not written through.
func TestWriteTreeStaysInside(t *testing.T) {
	outside := t.TempDir()
	for _, name := range []string{"../escaped.txt", "a/../../escaped.txt", filepath.Join(outside, "escaped.txt"), ""} {
		dst := filepath.Join(t.TempDir(), "tree")
		err := WriteTree(dst, map[string][]byte{"ok.txt": []byte("fine\n"), name: []byte("out\n")})
		if err == nil || !strings.Contains(err.Error(), "not a name inside") {
			t.Errorf("name %q: %v; want it refused", name, err)
		}
	}
	dst := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dst, "sub")); err != nil {
		t.Fatal(err)
	}
	err := WriteTree(dst, map[string][]byte{"sub/escaped.txt": []byte("out\n")})
	if err == nil {
		t.Error("a file was written through a link in the destination")
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) > 0 {
		t.Errorf("the folder outside holds %v", entries)
	}
	if err := WriteTree(filepath.Join(t.TempDir(), "new", "tree"), map[string][]byte{"a/b/run.sh": []byte("#!/bin/sh\n")}); err != nil {
		t.Errorf("an honest tree into a missing folder: %v", err)
	}
}
