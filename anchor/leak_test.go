package anchor

import (
	"strings"
	"testing"
)

func TestLeakDetector(t *testing.T) {
	e := newEnv(t)
	dir := addTask(t, e.suite, "train", "sum-leaky-task")
	writeFiles(t, dir, map[string]string{"task.toml": "prompt = \"\"\"\nThe report must say \"totals balanced\" at the end.\n\"\"\"\ntest = \"go test ./...\"\n"})
	addTask(t, e.suite, "holdout", "holdout-only-task")
	hash, _ := e.a.Snapshot(harnessDir(t))
	files, _ := e.a.readSnapshot(hash)
	tests := []struct{ line, want string }{
		{"When the task is sum-leaky-task, edit sum.go.", "sum-leaky-task"},
		{"import example.com/sum-leaky-task", "sum-leaky-task"},
		{`Always print "totals balanced".`, "totals balanced"},
		{"if the test says empty then", ""},
		{"holdout-only-task is not train", ""},
		{`Use "write_file" with the "complete file content".`, ""}, // harness vocabulary
	}
	for _, tt := range tests {
		diff := "--- a/system_prompt.md\n+++ b/system_prompt.md\n@@ -1 +1,2 @@\n x\n+" + tt.line + "\n"
		got := e.a.leak(diff, files)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("leak(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
	// Quoted strings from public tests count as well.
	writeFiles(t, dir, map[string]string{"repo/sum_test.go": "package sum\n// want \"grand total: 6\"\n"})
	if got := e.a.leak("+++ b/system_prompt.md\n+print grand total: 6\n", files); got == "" {
		t.Error("a string from a public test was not caught")
	}
}
