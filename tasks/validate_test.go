package tasks

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const (
	bug   = "package m\n\nfunc Double(x int) int { return x + x + 1 }\n"
	fixed = "package m\n\nfunc Double(x int) int { return x + x }\n"
	pub   = "package m\n\nimport \"testing\"\n\nfunc TestZero(t *testing.T) {\n\tif Double(0) > 1 {\n\t\tt.Fatal(Double(0))\n\t}\n}\n"
	hid   = "package m\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) {\n\tif Double(2) != 4 {\n\t\tt.Fatal(Double(2))\n\t}\n}\n"
)

func task(t *testing.T, suite, split, id string, extra map[string]string) {
	files := map[string]string{
		"task.toml":             "prompt = \"fix Double\"\ntest = \"go test ./...\"\n",
		"repo/go.mod":           "module example.com/m\n\ngo 1.26\n",
		"repo/m.go":             bug,
		"repo/m_test.go":        pub,
		"hidden/m_test.go":      pub,
		"hidden/double_test.go": hid,
		"reference/m.go":        fixed,
	}
	for k, v := range extra {
		if v == "" {
			delete(files, k)
		} else {
			files[k] = v
		}
	}
	write(t, filepath.Join(suite, split, id), files)
}

func TestValidateFindsBadTasks(t *testing.T) {
	suite := t.TempDir()
	task(t, suite, "train", "good", nil)
	task(t, suite, "train", "broken-reference", map[string]string{"reference/m.go": "package m\n\nfunc Double(x int) int { return 3 * x }\n"})
	task(t, suite, "holdout", "nothing-to-fix", map[string]string{"repo/m.go": "package m\n\nfunc Double(x int) int { return 2 * x }\n"})
	task(t, suite, "holdout", "copy-of-hidden", map[string]string{"repo/extra_test.go.txt": hid})
	task(t, suite, "sealed", "names-hidden-test", map[string]string{"repo/NOTES.md": "TestTwo checks Double(2)\n"})
	task(t, suite, "sealed", "no-toml", map[string]string{"task.toml": ""})
	task(t, suite, "sealed", "no-reference", map[string]string{"reference/m.go": ""})
	task(t, suite, "sealed", "same-as-good", nil)
	var out bytes.Buffer
	results, err := Validate(context.Background(), suite, 2, &out)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"good":              "",
		"broken-reference":  "the reference does not pass",
		"nothing-to-fix":    "already passes",
		"copy-of-hidden":    "is a copy of hidden/double_test.go",
		"names-hidden-test": "names the hidden test TestTwo",
		"no-toml":           "task.toml",
		"no-reference":      "no reference",
		"same-as-good":      "same files as train/good",
	}
	if len(results) != len(want) {
		t.Fatalf("got %d results:\n%s", len(results), out.String())
	}
	for _, r := range results {
		w := want[r.ID]
		if (w == "") != (r.Problem == "") || !strings.Contains(r.Problem, w) {
			t.Errorf("%s: problem %q, want %q", r.ID, r.Problem, w)
		}
	}
	if !strings.Contains(out.String(), "BAD: the reference does not pass") || !strings.Contains(out.String(), "good") {
		t.Errorf("table:\n%s", out.String())
	}
	if _, err := Validate(context.Background(), t.TempDir(), 1, &out); err == nil {
		t.Error("an empty folder validated")
	}
}
