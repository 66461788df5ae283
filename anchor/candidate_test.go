package anchor

import (
	"strings"
	"testing"
)

func TestCheckDiff(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	h := harnessDir(t)
	hash, _ := e.a.Snapshot(h)
	files, _ := e.a.readSnapshot(hash)
	editable := Manifest(files)
	prompt := readHarness(t, h, "system_prompt.md")
	readFile := readHarness(t, h, "tools/read_file.go")
	tests := []struct {
		name, component, diff, want string
	}{
		{"one editable file", "system_prompt.md", makeDiff(t, h, map[string]string{"system_prompt.md": prompt + "Be brief.\n"}), ""},
		{"empty diff", "system_prompt.md", "", "empty or not a diff"},
		{"component not in manifest", "main.go", makeDiff(t, h, map[string]string{"main.go": readHarness(t, h, "main.go") + "// x\n"}), "not listed in manifest"},
		{"file outside the manifest", "system_prompt.md", makeDiff(t, h, map[string]string{"main.go": readHarness(t, h, "main.go") + "// x\n"}), "must touch exactly system_prompt.md; it touches main.go"},
		{"two files", "system_prompt.md", makeDiff(t, h, map[string]string{"system_prompt.md": prompt + "x\n", "memory/memory.go": readHarness(t, h, "memory/memory.go") + "// x\n"}), "it touches memory/memory.go, system_prompt.md"},
		{"new file", "tools/new.go", makeDiff(t, h, map[string]string{"tools/new.go": "package tools\n"}), "create mode"},
		{"deleted file", "system_prompt.md", makeDiff(t, h, map[string]string{"system_prompt.md": "\x00delete"}), "delete mode"},
		{"binary", "system_prompt.md", makeDiff(t, h, map[string]string{"system_prompt.md": "\x00\x01\x02binary\x00"}), "binary"},
		{"mode change", "system_prompt.md", "diff --git a/system_prompt.md b/system_prompt.md\nold mode 100644\nnew mode 100755\n", "mode change"},
		{"symlink", "system_prompt.md", "diff --git a/system_prompt.md b/system_prompt.md\nnew file mode 120000\n--- /dev/null\n+++ b/system_prompt.md\n@@ -0,0 +1 @@\n+/etc/passwd\n", "create mode 120000"},
		{"rename", "system_prompt.md", "diff --git a/system_prompt.md b/prompt.md\nsimilarity index 100%\nrename from system_prompt.md\nrename to prompt.md\n", "rename system_prompt.md => prompt.md"},
		{"dot dot", "system_prompt.md", "--- a/../system_prompt.md\n+++ b/../system_prompt.md\n@@ -1 +1 @@\n-a\n+b\n", "outside the harness"},
		{"absolute", "system_prompt.md", "--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-a\n+b\n", "it touches etc/passwd"},
		{"no file", "system_prompt.md", "hello\n", "not a diff git can read"},
		{"whole-file rewrite", "tools/read_file.go", makeDiff(t, h, map[string]string{"tools/read_file.go": "package tools\n"}), "whole-file rewrite"},
		{"large edit that keeps most lines", "tools/read_file.go", makeDiff(t, h, map[string]string{"tools/read_file.go": strings.Replace(readFile, "Read a text file", "Read a whole text file", 1)}), ""},
	}
	for _, tt := range tests {
		got := checkDiff([]byte(tt.diff), tt.component, editable, files)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: checkDiff = %q, want %q", tt.name, got, tt.want)
		}
	}
}
