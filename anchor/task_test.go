package anchor

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TOML's own examples of its four string forms (toml.io, v1.0.0, "String"),
// and what a task file may not hold.
func TestTaskTOMLStrings(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"basic with escapes", `prompt = "I'm a string. \"You can quote me\". Name\tJos\u00E9\nLocation\tSF."`, "I'm a string. \"You can quote me\". Name\tJosé\nLocation\tSF."},
		{"multi-line basic, first newline trimmed", "prompt = \"\"\"\nRoses are red\nViolets are blue\"\"\"", "Roses are red\nViolets are blue"},
		{"line-ending backslash", "prompt = \"\"\"\nThe quick brown \\\n\n\n  fox jumps over \\\n    the lazy dog.\"\"\"", "The quick brown fox jumps over the lazy dog."},
		{"line-ending backslash right after the quotes", "prompt = \"\"\"\\\n       The quick brown \\\n       fox jumps over \\\n       the lazy dog.\\\n       \"\"\"", "The quick brown fox jumps over the lazy dog."},
		{"quotes inside multi-line basic", `prompt = """Here are two quotation marks: "". Simple enough."""`, `Here are two quotation marks: "". Simple enough.`},
		{"escaped triple quotes", `prompt = """Here are three quotation marks: ""\"."""`, `Here are three quotation marks: """.`},
		{"quotes before the closing ones", `prompt = """"This," she said, "is just a pointless statement.""""`, `"This," she said, "is just a pointless statement."`},
		{"literal", `prompt = 'C:\Users\nodejs\templates'`, `C:\Users\nodejs\templates`},
		{"literal with quotes", `prompt = 'Tom "Dubs" Preston-Werner'`, `Tom "Dubs" Preston-Werner`},
		{"multi-line literal", "prompt = '''\nThe first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n'''", "The first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n"},
		{"multi-line literal regex", `prompt = '''I [dw]on't need \d{2} apples'''`, `I [dw]on't need \d{2} apples`},
		{"an ASCII tree in a basic multi-line string", "prompt = \"\"\"\n  /\\\\\n / \\\\\n\"\"\"", "  /\\\n / \\\n"},
		{"comments and blank lines", "# a task\n\nprompt = \"x\" # trailing\n", "x"},
	}
	for _, tt := range tests {
		vals, err := parseTOML(tt.in + "\ntest = 'go test ./...'\n")
		if err != nil || vals["prompt"] != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.name, vals["prompt"], err, tt.want)
		}
	}
	for _, bad := range []struct{ in, line string }{
		{"prompt = \"x\"\nn = 3\n", "line 2"},
		{"prompt = \"x\"\n[table]\n", "line 2"},
		{"prompt = \"x\" y\n", "line 1"},
		{"a = 'x'\nprompt = \"\\q\"\n", "line 2"},
		{"prompt = \"x\"\nprompt = \"y\"\n", "line 2"},
		{"prompt = \"\"\"\nnever closed\n", "line 1"},
		{"id = \"x\"\nprompt = \"\"\"\nnever closed\n", "line 2: a multi-line string starts here and is never closed"},
	} {
		if _, err := parseTOML(bad.in); err == nil || !strings.Contains(err.Error(), bad.line) {
			t.Errorf("%q: %v, want an error naming %s", bad.in, err, bad.line)
		}
	}
}

// anchorCmd runs the real anchor command line (this test binary, re-executed)
// in a fresh folder with the given PATH.
func anchorCmd(t *testing.T, dir, path string, args ...string) (string, error) {
	t.Helper()
	self, _ := os.Executable()
	cmd := exec.Command(self, args...)
	cmd.Dir = dir
	cmd.Env = []string{"ANCHOR_TEST_MAIN=1", "PATH=" + path, "HOME=" + dir, "ANCHOR_TASKS=" + filepath.Join(dir, "suite")}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

func TestCommandLineHelpAndBadInputChangeNothing(t *testing.T) {
	dir := t.TempDir()
	path := os.Getenv("PATH")
	for _, args := range [][]string{{"-h"}, {"eval", "-h"}, {"apply", "-h"}} {
		out, err := anchorCmd(t, dir, path, args...)
		if err != nil || !strings.Contains(out, "usage: anchor") || (len(args) > 1 && !strings.Contains(out, "ANCHOR_HOME")) {
			t.Errorf("anchor %v: %v\n%s", args, err, out)
		}
	}
	for _, args := range [][]string{{"frob"}, {"eval", "--nope"}, {"eval", "--jobs", "x"}, {"eval", "extra", "--json=maybe"}} {
		if out, err := anchorCmd(t, dir, path, args...); err == nil || strings.Count(strings.TrimSpace(out), "\n") > 0 {
			t.Errorf("anchor %v: %v, want one line:\n%s", args, err, out)
		}
	}
	// Without bubblewrap: one line saying what to install, and no ledger.
	bin := t.TempDir()
	for _, tool := range []string{"go", "git", "prlimit", "sh"} {
		if p, err := exec.LookPath(tool); err == nil {
			os.Symlink(p, filepath.Join(bin, tool))
		}
	}
	out, err := anchorCmd(t, dir, bin, "eval", "--split", "train")
	if err == nil || !strings.Contains(out, "install bubblewrap") || strings.Count(strings.TrimSpace(out), "\n") > 0 {
		t.Errorf("eval without bwrap: %v\n%s", err, out)
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("bad input left %v on disk", entries)
	}
}

func TestLoadTask(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "holdout", "t1")
	writeFiles(t, dir, map[string]string{"repo/x": "", "task.toml": "# a task\nprompt = \"\"\"\nLine one.\nLine \"two\".\n\"\"\"\ntest = 'go test ./...'\ntimeout = \"90s\"\n"})
	task, err := LoadTask(dir)
	if err != nil {
		t.Fatal(err)
	}
	if task.Prompt != "Line one.\nLine \"two\".\n" || task.Test != "go test ./..." || task.Timeout != 90*time.Second || task.Split != "holdout" || task.ID != "t1" {
		t.Errorf("task = %+v", task)
	}
	if task.ScoreCommand() != "go test -json -exec /opt/score/hide ./..." {
		t.Errorf("score command = %q", task.ScoreCommand())
	}
	if task.Group != "t1" {
		t.Errorf("group = %q, want the task's id when task.toml names none", task.Group)
	}
	// cargo test inside a longer command is no go test (and no runner's task).
	for command, want := range map[string]string{
		"cd x && cargo test":    "cd x && cargo test",
		"cd . && go test ./...": "cd . && go test -json -exec /opt/score/hide ./...",
		"MODE=1 go test ./a; go test ./b": "MODE=1 go test -json -exec /opt/score/hide ./a; " +
			"go test -json -exec /opt/score/hide ./b",
	} {
		if got := (Task{Test: command}).ScoreCommand(); got != want {
			t.Errorf("%q scores as %q, want %q", command, got, want)
		}
	}
	os.WriteFile(filepath.Join(dir, "task.toml"), []byte("prompt = \"x\"\ntest = \"y\"\ngroup = \"sum\"\n"), 0o644)
	if task, err := LoadTask(dir); err != nil || task.Group != "sum" {
		t.Errorf("group = %q (%v), want sum", task.Group, err)
	}
	for _, bad := range []string{"prompt = \"x\"\n", "test = \"x\"\n", "prompt = \"\"\"\nnever closed\ntest = \"x\"\n", "prompt = \"x\"\ntest = \"y\"\ntimeout = \"soon\"\n"} {
		os.WriteFile(filepath.Join(dir, "task.toml"), []byte(bad), 0o644)
		if _, err := LoadTask(dir); err == nil {
			t.Errorf("accepted task.toml %q", bad)
		}
	}
}
