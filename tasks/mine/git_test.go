package mine

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// Issue #33: a repository handed over as a folder brings its own
// .git/config, and its .gitattributes may name a filter driver, a textconv
// or an external diff that config defines: commands git would run on the
// host. Reading trees and changes runs none of them, and gives the bytes as
// committed.
func TestReadingARepositoryRunsNoneOfItsCommands(t *testing.T) {
	r := newRepo(t)
	marks := t.TempDir()
	r.commit("start", map[string]string{"a.txt": "one\n", ".gitattributes": "* filter=evil diff=evil\n"})
	os.Symlink("/etc/passwd", filepath.Join(r.dir, "link"))
	head := r.commit("change", map[string]string{"a.txt": "two\n", "b.txt": "three\n"})
	// The repository's own config, set after its commits (the test's own
	// git runs the clean filter too).
	for key, cmd := range map[string]string{
		"filter.evil.smudge":  "touch " + filepath.Join(marks, "smudge") + "; cat",
		"filter.evil.clean":   "touch " + filepath.Join(marks, "clean") + "; cat",
		"filter.evil.process": "touch " + filepath.Join(marks, "process"),
		"diff.evil.textconv":  "touch " + filepath.Join(marks, "textconv") + "; cat",
		"diff.evil.command":   "touch " + filepath.Join(marks, "command"),
		"diff.external":       "touch " + filepath.Join(marks, "external"),
		"core.fsmonitor":      "touch " + filepath.Join(marks, "fsmonitor"),
	} {
		r.git("config", key, cmd)
	}
	ctx := context.Background()
	files, err := treeAt(ctx, r.dir, head)
	if err != nil {
		t.Fatal(err)
	}
	if string(files["a.txt"]) != "two\n" || string(files["b.txt"]) != "three\n" || len(files) != 3 {
		t.Errorf("tree: %q", files)
	}
	if _, ok := files["link"]; ok {
		t.Error("a link was read as a file")
	}
	cs, err := changes(ctx, r.dir, head+"~1", head)
	if err != nil || len(cs) != 3 {
		t.Errorf("changes: %v %+v", err, cs)
	}
	if ran, _ := os.ReadDir(marks); len(ran) != 0 {
		t.Errorf("reading the repository ran its own commands: %v", ran)
	}
}
