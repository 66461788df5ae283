package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ratchet/door/doortest"
	"ratchet/harness/fakemodel"
)

// exitCode runs cmd and returns its exit status.
func exitCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

// TestEveryCommandInAnEmptyFolder runs every command of both binaries as a
// newcomer would: in an empty folder, with an empty HOME, no ANCHOR_HOME or
// RATCHET_HOME and no MODEL_* variables. Each ends with the exit status of
// the convention (0 done, 1 negative, 2 usage or input, 3 infrastructure),
// a refusal is one line on stderr, and no file appears anywhere, not even
// for the commands that would write once given what they need.
func TestEveryCommandInAnEmptyFolder(t *testing.T) {
	t.Parallel()
	ratchet, anchorBin := builtBinaries(t)
	root := t.TempDir()
	home, work := filepath.Join(root, "home"), filepath.Join(root, "work")
	for _, d := range []string{home, work} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A port nothing listens on, for fleet's NATS.
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "NATS_URL=nats://127.0.0.1:1"}
	cases := []struct {
		bin  string
		args []string
		code int
	}{
		{ratchet, nil, 2},
		{ratchet, []string{"tasks"}, 2},
		{ratchet, []string{"tasks", "validate"}, 2},
		{ratchet, []string{"tasks", "validate", "nosuch"}, 2},
		{ratchet, []string{"evolve"}, 2},
		{ratchet, []string{"evolve", "--dry-run"}, 2},
		{ratchet, []string{"evolve", "--history"}, 0},
		{ratchet, []string{"run", "fix the bug"}, 2},
		{ratchet, []string{"run"}, 2},
		{ratchet, []string{"sessions"}, 0},
		{ratchet, []string{"sessions", "--json"}, 0},
		{ratchet, []string{"sessions", "--show", "nosuch"}, 2},
		{ratchet, []string{"serve"}, 2},
		{ratchet, []string{"editors"}, 0},
		{ratchet, []string{"harness", "which"}, 0},
		{ratchet, []string{"harness", "export", "out"}, 2},
		{ratchet, []string{"ui"}, 2},
		{ratchet, []string{"plan"}, 2},
		{ratchet, []string{"plan", "--p", "0.5", "--holdout", "20", "--trials", "10"}, 0},
		{ratchet, []string{"fleet", "status"}, 3},
		{ratchet, []string{"fleet", "worker"}, 3},
		{ratchet, []string{"fleet", "submit"}, 2},
		{ratchet, []string{"mcp"}, 0}, // stdin is empty: the client went away at once
		{anchorBin, nil, 0},
		{anchorBin, []string{"frob"}, 2},
		{anchorBin, []string{"init"}, 2},
		{anchorBin, []string{"snapshot"}, 2},
		{anchorBin, []string{"snapshot", "nosuch"}, 2},
		{anchorBin, []string{"run"}, 2},
		{anchorBin, []string{"eval", "--split", "train"}, 2},
		{anchorBin, []string{"apply"}, 2},
		{anchorBin, []string{"apply", "--candidate", "c.json"}, 2},
		{ratchet, []string{"log"}, 2},
		{ratchet, []string{"log", "--json"}, 2},
		{anchorBin, []string{"rollback", "0"}, 2},
		{anchorBin, []string{"traces"}, 2}, // no more: the evolver reads train runs from the ledger
		{ratchet, []string{"verify"}, 2},
		{ratchet, []string{"verify", "x"}, 2},
		{anchorBin, []string{"replay", "somerun"}, 2},
		{anchorBin, []string{"replay"}, 2},
	}
	for _, c := range cases {
		name := filepath.Base(c.bin) + " " + strings.Join(c.args, " ")
		cmd := exec.Command(c.bin, c.args...)
		var stdout, stderr bytes.Buffer
		cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = work, env, &stdout, &stderr
		code := exitCode(t, cmd)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d\nstdout: %s\nstderr: %s", name, code, c.code, stdout.String(), stderr.String())
		}
		if code != 0 && (!strings.HasPrefix(stderr.String(), filepath.Base(c.bin)+": ") || stdout.Len() > 0) {
			t.Errorf("%s: a refusal must be on stderr, starting %q:\nstdout: %s\nstderr: %s", name, filepath.Base(c.bin)+": ", stdout.String(), stderr.String())
		}
		if code != 0 && !strings.Contains(strings.Join(c.args, " "), "validate") && len(c.args) > 0 && strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%s: want one line on stderr, got:\n%s", name, stderr.String())
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

// TestRunExitStatuses runs the built ratchet on a project with the scripted
// model: a fix that makes the tests pass exits 0 and --json says so; a
// reply that leaves the tests failing exits 1; a model server that is not
// there exits 3; and an interrupt does not claim the budget was spent.
func TestRunExitStatuses(t *testing.T) {
	t.Parallel()
	ratchet, _ := builtBinaries(t)
	fixer := make([]fakemodel.Step, 20)
	for i := range fixer {
		fixer[i] = fakemodel.Step{Func: doortest.Fixer}
	}
	srv, err := fakemodel.Start(fixer...)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	idle, err := fakemodel.Start(fakemodel.Step{Text: "Looks fine to me.", In: 5, Out: 5})
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	asked := make(chan struct{}, 1)
	slow, err := fakemodel.Start(fakemodel.Step{Func: func(fakemodel.Request) fakemodel.Step {
		select {
		case asked <- struct{}{}:
		default:
		}
		time.Sleep(20 * time.Second)
		return fakemodel.Step{Text: "late"}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	home := t.TempDir()
	run := func(url string, args ...string) (string, string, int) {
		cmd := exec.Command(ratchet, append([]string{"run", "--home", home, "--harness", doortest.Harness()}, args...)...)
		cmd.Env = doortest.ModelEnv(url)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		code := exitCode(t, cmd)
		return stdout.String(), stderr.String(), code
	}

	proj := doortest.Project(t)
	stdout, stderr, code := run(srv.URL, "--project", proj, "--json", "Double is wrong; fix it.")
	var rec struct {
		ID         string `json:"id"`
		Outcome    string `json:"outcome"`
		ExitStatus int    `json:"exit_status"`
	}
	json.Unmarshal([]byte(stdout), &rec)
	if code != 0 || rec.ExitStatus != 0 || rec.Outcome != "completed" || !strings.Contains(stderr, "test command: go test ./... (detected)") {
		t.Errorf("a fix: exit %d, record %+v\nstdout: %s\nstderr: %s", code, rec, stdout, stderr)
	}
	// sessions --show takes the record id a summary or an interrupt names,
	// and prints indented JSON.
	show := exec.Command(ratchet, "sessions", "--home", home, "--show", rec.ID)
	shown, err := show.Output()
	if err != nil || !strings.Contains(string(shown), "\n    \"outcome\": \"completed\",\n") {
		t.Errorf("sessions --show %s: %v\n%s", rec.ID, err, shown)
	}

	stdout, stderr, code = run(idle.URL, "--project", doortest.Project(t), "Double is wrong; fix it.")
	if code != 1 || !strings.Contains(stderr, "the tests still fail after the run") {
		t.Errorf("tests still failing: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}

	stdout, stderr, code = run("http://127.0.0.1:1", "--project", doortest.Project(t), "--json", "Double is wrong; fix it.")
	json.Unmarshal([]byte(stdout), &rec)
	if code != 3 || rec.ExitStatus != 3 || !strings.Contains(stderr, "check MODEL_URL") {
		t.Errorf("no model server: exit %d, record %+v\nstdout: %s\nstderr: %s", code, rec, stdout, stderr)
	}
	// It says so before it runs the tests or the harness (issue 36: it ran
	// the tests, retried four times and ran them again first).
	if !strings.Contains(stderr, "not reachable") || strings.Contains(stderr, "tests before:") {
		t.Errorf("no model server: the tests ran before the door said the server is down:\n%s", stderr)
	}

	cmd := exec.Command(ratchet, "run", "--home", home, "--harness", doortest.Harness(), "--project", doortest.Project(t), "Double is wrong; fix it.")
	cmd.Env = doortest.ModelEnv(slow.URL)
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Minute); !strings.Contains(out.String(), "tests before:"); {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("ratchet run printed no \"tests before:\" in 5 minutes:\n%s", out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	select { // Ctrl-C while the agent waits on the model
	case <-asked:
	case <-time.After(5 * time.Minute):
		t.Errorf("the agent never asked the model in 5 minutes:\n%s", out.String())
	}
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	if s := out.String(); strings.Contains(s, "budget spent") || !strings.Contains(s, "interrupted; the record is saved as") {
		t.Errorf("Ctrl-C:\n%s", s)
	}
}

// syncBuffer is a buffer a process writes to while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestValidateRefusesASuiteTheAnchorCannotUse runs the built validator on a
// suite with only sealed/ (anchor init would fail on it, and the gate
// could never accept): it names each suite problem and what to add, names
// the line of an unclosed multi-line string in a task.toml, and exits 1.
func TestValidateRefusesASuiteTheAnchorCannotUse(t *testing.T) {
	t.Parallel()
	ratchet, _ := builtBinaries(t)
	suite := t.TempDir()
	task := filepath.Join(suite, "sealed", "open-string")
	os.MkdirAll(filepath.Join(task, "repo"), 0o755)
	os.WriteFile(filepath.Join(task, "task.toml"), []byte("test = \"go test ./...\"\nprompt = \"\"\"\nFix it.\n"), 0o644)
	cmd := exec.Command(ratchet, "tasks", "validate", suite)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if code := exitCode(t, cmd); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{"line 2: a multi-line string starts here and is never closed",
		"BAD suite: no train tasks", "BAD suite: no holdout tasks: the gate accepts only on holdout/; add tasks of at least 5 groups"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("no %q in:\n%s", want, stdout.String())
		}
	}
	if !strings.HasPrefix(stderr.String(), "ratchet: ") || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("stderr: %q", stderr.String())
	}
}

// TestEditorsCarryTheModelSettings runs the built ratchet editors with the
// model settings in the environment: each entry carries MODEL_URL and
// MODEL_NAME (an editor started from the desktop has no shell variables),
// never the credential, and a command not on PATH gets this binary's own
// absolute path as the suggestion.
func TestEditorsCarryTheModelSettings(t *testing.T) {
	t.Parallel()
	ratchet, _ := builtBinaries(t)
	cmd := exec.Command(ratchet, "editors", "--command", "no-such-ratchet")
	cmd.Dir = t.TempDir()
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "MODEL_URL=http://gpu:11434", "MODEL_NAME=qwen3:8b",
		"MODEL_API_KEY=sk-editors-SECRET"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if code := exitCode(t, cmd); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if n := strings.Count(stdout.String(), `"MODEL_URL": "http://gpu:11434"`); n != 4 || strings.Count(stdout.String(), `"MODEL_NAME": "qwen3:8b"`) != 4 {
		t.Errorf("want the model settings in all four entries:\n%s", stdout.String())
	}
	if strings.Contains(stdout.String()+stderr.String(), "SECRET") {
		t.Error("the credential was written into an editor's entry")
	}
	if !strings.Contains(stderr.String(), "pass --command "+ratchet) {
		t.Errorf("the suggestion is not this binary's path:\n%s", stderr.String())
	}
}

// TestAnchorPointsTheRightWay runs the built anchor where the issue found
// it pointing the wrong way: apply without --candidate names the flag; log
// on a ledger with no generation says so; traces needs neither --split nor
// the model variables; a candidate that is not a diff is refused before a
// generation is recorded.
func TestAnchorPointsTheRightWay(t *testing.T) {
	t.Parallel()
	ratchet, anchorBin := builtBinaries(t)
	home := filepath.Join(t.TempDir(), "ledger")
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	anchor := func(args ...string) (string, string, int) {
		cmd := exec.Command(anchorBin, append(args[:1:1], append([]string{"--home", home}, args[1:]...)...)...)
		cmd.Env = env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		code := exitCode(t, cmd)
		return stdout.String(), stderr.String(), code
	}
	ratchetLog := func() (string, string, int) { // the ledger as ratchet reads it
		cmd := exec.Command(ratchet, "log", "--home", home)
		cmd.Env = env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		code := exitCode(t, cmd)
		return stdout.String(), stderr.String(), code
	}
	if _, stderr, code := anchor("apply"); code != 2 || !strings.Contains(stderr, "anchor apply needs --candidate FILE.json") {
		t.Errorf("apply without --candidate: exit %d, %q", code, stderr)
	}
	_, stderr, code := anchor("snapshot", doortest.Harness())
	if code != 0 {
		t.Fatalf("snapshot: exit %d %s", code, stderr)
	}
	if stdout, stderr, code := ratchetLog(); code != 0 || !strings.Contains(stdout, "no generations yet") {
		t.Errorf("log on a ledger without generations: exit %d, %q %q", code, stdout, stderr)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "c.diff"), []byte("Please be more careful.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "c.json"), []byte(`{"diff": "c.diff", "component": "system_prompt.md"}`), 0o644)
	if _, stderr, code := anchor("apply", "--candidate", filepath.Join(dir, "c.json")); code != 2 || !strings.Contains(stderr, "is not a unified diff; nothing was recorded") {
		t.Errorf("a candidate that is not a diff: exit %d, %q", code, stderr)
	}
	if stdout, _, _ := ratchetLog(); !strings.Contains(stdout, "no generations yet") {
		t.Errorf("a generation was recorded for a candidate that is not a diff:\n%s", stdout)
	}
}

// ratchet run names and runs the test command of a Rust and of a JavaScript
// project, each with the project's own tool on the host (issue 37): the
// tests pass before and after a run that changes nothing, which they could
// only do if cargo and npm really ran them.
func TestRunDetectsRustAndJavaScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a Rust crate with cargo")
	}
	t.Parallel()
	ratchet, _ := builtBinaries(t)
	idle, err := fakemodel.Start(fakemodel.Step{Text: "Looks fine to me.", In: 5, Out: 5})
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	projects := map[string]map[string]string{
		"cargo test": {
			"Cargo.toml": "[package]\nname = \"double\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
			"src/lib.rs": "pub fn double(x: i32) -> i32 { x * 2 }\n\n#[cfg(test)]\nmod tests {\n" +
				"    #[test]\n    fn doubles() { assert_eq!(super::double(3), 6); }\n}\n",
		},
		"npm test": {
			"package.json": `{"name": "double", "version": "1.0.0", "scripts": {"test": "node --test"}}` + "\n",
			"double.js":    "exports.double = (x) => x * 2;\n",
			"double.test.js": "const test = require('node:test');\nconst assert = require('node:assert');\n" +
				"test('doubles', () => assert.strictEqual(require('./double').double(3), 6));\n",
		},
	}
	for command, files := range projects {
		tool := strings.Fields(command)[0]
		if _, err := exec.LookPath(tool); err != nil {
			t.Errorf("%s is not on PATH: scripts/deps.sh installs what the tests need", tool)
			continue
		}
		proj := t.TempDir()
		for name, body := range files {
			os.MkdirAll(filepath.Dir(filepath.Join(proj, name)), 0o755)
			if err := os.WriteFile(filepath.Join(proj, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(ratchet, "run", "--home", t.TempDir(), "--harness", doortest.Harness(), "--project", proj,
			"Check that double works.")
		cmd.Env = doortest.ModelEnv(idle.URL)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		code := exitCode(t, cmd)
		for _, want := range []string{"test command: " + command + " (detected)", "tests before: pass", "tests after: pass"} {
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("%s project: exit %d, no %q in\n%s", tool, code, want, stderr.String())
			}
		}
	}
}
