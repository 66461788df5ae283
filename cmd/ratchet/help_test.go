package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelpAndBadInputLeaveNothing runs the built ratchet as a newcomer would,
// in an empty folder with empty HOME, ANCHOR_HOME and RATCHET_HOME: every
// command's -h prints its flags, their defaults and the environment variables
// it reads; unknown commands and bad flags fail with one line; and no file
// appears anywhere.
func TestHelpAndBadInputLeaveNothing(t *testing.T) {
	t.Parallel()
	bin, _ := builtBinaries(t)
	root := t.TempDir()
	for _, d := range []string{"home", "anchor", "ratchet", "work"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(root, "home"),
		"ANCHOR_HOME=" + filepath.Join(root, "anchor"), "RATCHET_HOME=" + filepath.Join(root, "ratchet")}
	run := func(args ...string) (stdout, stderr string, code int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = filepath.Join(root, "work"), env
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return o.String(), e.String(), code
	}

	help := []struct {
		args []string
		want []string // in stdout
	}{
		{[]string{"-h"}, []string{"evolve", "editors", "COMMAND -h", "ANCHOR_HOME", "MODEL_URL"}},
		{[]string{"run", "-h"}, []string{"-project", `(default ".")`, "(RATCHET_HOME", "MODEL_URL"}},
		{[]string{"sessions", "-h"}, []string{"-json", "-show", "(RATCHET_HOME"}},
		{[]string{"serve", "-h"}, []string{"-addr", `(default "127.0.0.1:8765")`, "RATCHET_TOKEN", "MODEL_NAME"}},
		{[]string{"mcp", "-h"}, []string{"-root", "MODEL_NAME", "RATCHET_LEDGER"}},
		{[]string{"ui", "-h"}, []string{"-addr", `(default "127.0.0.1:8766")`, "(ANCHOR_HOME)"}},
		{[]string{"evolve", "-h"}, []string{"-rounds", "(default 1)", "EVOLVE_MODEL_", "ANCHOR_TASKS"}},
		{[]string{"plan", "-h"}, []string{"-trials", "(default 2000)", "(ANCHOR_HOME)"}},
		{[]string{"calibrate", "-h"}, []string{"-n", "(default 20)", "-variants", "ANCHOR_HOME", "calibration.jsonl"}},
		{[]string{"editors", "-h"}, []string{"-write", `(default "ratchet")`}},
		{[]string{"tasks", "-h"}, []string{"tasks validate"}},
		{[]string{"tasks", "validate", "-h"}, []string{"-jobs"}},
		{[]string{"tasks", "import", "-h"}, []string{"-out", "polyglot"}},
		{[]string{"tasks", "mine", "-h"}, []string{"-split", `(default "60/25/15")`, "-rev", "GOPROXY", "-time", "-mutants"}},
		{[]string{"tasks", "mutate", "-h"}, []string{"-seed", "-n", "(default 20)"}},
		{[]string{"harness", "-h"}, []string{"which", "export"}},
		{[]string{"harness", "export", "-h"}, []string{"-gen", "(default -1)", "RATCHET_LEDGER"}},
		{[]string{"fleet", "-h"}, []string{"submit", "worker", "NATS_URL"}},
		{[]string{"fleet", "worker", "-h"}, []string{"-jobs", "(default 1)", "-ack-wait", "(NATS_URL)", "(RATCHET_FLEET_HOME)"}},
		{[]string{"scripted-model", "-h"}, []string{"-rate", "(ANCHOR_TASKS)"}},
	}
	for _, tt := range help {
		stdout, stderr, code := run(tt.args...)
		if code != 0 || stderr != "" {
			t.Errorf("ratchet %s: exit %d, stderr %q; want 0 and nothing", strings.Join(tt.args, " "), code, stderr)
		}
		for _, w := range tt.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("ratchet %s does not print %q:\n%s", strings.Join(tt.args, " "), w, stdout)
			}
		}
	}

	bad := [][]string{
		{"frob"}, {"frob", "-h"}, {"run", "--frob"}, {"sessions", "--frob"}, {"serve", "--frob"}, {"mcp", "--frob"},
		{"ui", "--frob"}, {"ui", "--addr"}, {"evolve", "--frob"}, {"evolve", "--rounds", "x"}, {"plan", "--frob"}, {"plan", "--gain", "2"},
		{"editors", "--frob"}, {"editors", "--editor", "emacs"}, {"tasks", "frob"}, {"tasks", "validate", "--frob"},
		{"tasks", "import", "exercism", "x", "--frob"}, {"tasks", "import", "frob", "x", "--out", "y"}, {"tasks", "import", "exercism", "x"},
		{"tasks", "import", "exercism", "no-such-folder", "--out", "y"},
		{"tasks", "mine", "--frob"}, {"tasks", "mine", "."}, {"tasks", "mine", ".", "--out", "s"}, {"tasks", "mine", ".", "--out", "s", "--split", "1/2"},
		{"tasks", "mutate", "--frob"}, {"tasks", "mutate", ".", "--out", "s", "-n", "0"}, {"tasks", "mutate", ".", "--out", "s"},
		{"harness", "frob"}, {"harness", "which", "--frob"}, {"fleet", "frob"}, {"fleet", "status", "--frob"},
		{"scripted-model", "--frob"}, {"scripted-model", "--gain", "0.1"}, {"scripted-model", "--sampler", "--gain", "1.5"},
		{"calibrate", "--frob"}, {"calibrate", "--n", "0"}, {"calibrate", "extra"},
	}
	for _, args := range bad {
		stdout, stderr, code := run(args...)
		if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "ratchet: ") {
			t.Errorf("ratchet %s: exit %d, stdout %q, stderr %q; want exit status 2 and one line on stderr", strings.Join(args, " "), code, stdout, stderr)
		}
	}

	var made []string
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if rel, _ := filepath.Rel(root, path); strings.Contains(rel, string(filepath.Separator)) {
			made = append(made, rel)
		}
		return nil
	})
	if len(made) > 0 {
		t.Errorf("files appeared: %v", made)
	}
}
