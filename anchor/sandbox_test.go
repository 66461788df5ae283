package anchor

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// realBox lays out a host the way an agent run sees it: a ledger, a suite
// with train, holdout and sealed splits whose task has hidden/ and
// reference/, a harness binary and a model socket, and returns the box the
// anchor would start for that task.
func realBox(t *testing.T, e *testEnv) (Box, string) {
	t.Helper()
	task := addTask(t, e.suite, "train", "iso-task")
	addTask(t, e.suite, "holdout", "iso-holdout")
	addTask(t, e.suite, "sealed", "iso-sealed")
	writeFiles(t, task, map[string]string{"hidden/test_hidden_zq9.py": "MARK", "reference/ref_zq9.txt": "MARK"})
	work := filepath.Join(t.TempDir(), "work")
	if err := copyTree(filepath.Join(task, "repo"), filepath.Join(work, "task")); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "harness")
	os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755)
	sock := filepath.Join(t.TempDir(), "model.sock")
	p, err := StartProxy(sock, ProxyConfig{API: "openai", Upstream: e.srv.URL, Model: "scripted", Key: e.a.key, Budget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	cache := filepath.Join(t.TempDir(), "cache")
	os.MkdirAll(cache, 0o755)
	return Box{Work: work, Cache: cache, Timeout: 30 * time.Second, Harness: bin, Socket: sock}, work
}

func (b Box) sh(t *testing.T, script string) (int, string) {
	t.Helper()
	b.Args = []string{"sh", "-c", script}
	code, out, _, err := b.Run(ctx())
	if err != nil {
		t.Fatal(err)
	}
	return code, string(out)
}

func TestSandboxCannotSeeWhatIsHidden(t *testing.T) {
	slow(t)
	e := newEnv(t)
	box, _ := realBox(t, e)
	self, _ := os.Executable()
	names := []string{"ledger.db", "holdout", "test_hidden_zq9.py", "ref_zq9.txt", "anchor", filepath.Base(self), "iso-task", "iso-holdout", "iso-sealed", "sum_more_test.go"}
	var expr []string
	for _, n := range names {
		expr = append(expr, "-name '"+n+"'")
	}
	code, out := box.sh(t, "find / -path /proc -prune -o \\( "+strings.Join(expr, " -o ")+" \\) -print 2>/dev/null; echo END")
	if code != 0 || strings.TrimSpace(out) != "END" {
		t.Fatalf("the sandbox can see: %q (exit %d)", out, code)
	}
	// Nothing of the host's home, the anchor's home or the repository.
	for _, p := range []string{e.a.Home, e.suite, os.Getenv("HOME"), filepath.Dir(self), harnessDir(t)} {
		if _, out := box.sh(t, "ls -d '"+p+"' 2>/dev/null; true"); strings.TrimSpace(out) != "" {
			t.Errorf("the sandbox sees %s", p)
		}
	}
	// No credential: not in the environment, not in any visible file.
	_, out = box.sh(t, "env; grep -rl 'SECRET-123' /work /tmp /run /opt /etc /cache 2>/dev/null; true")
	if strings.Contains(out, "SECRET-123") || strings.Contains(out, "KEY") {
		t.Errorf("the credential or a key variable is visible:\n%s", out)
	}
	if _, out := box.sh(t, "test -S /run/model.sock && test -x /opt/harness && echo ok"); strings.TrimSpace(out) != "ok" {
		t.Errorf("the socket and the harness binary must be visible: %q", out)
	}
}

func TestSandboxHasNoNetwork(t *testing.T) {
	slow(t)
	t.Parallel()
	e := newEnv(t)
	box, _ := realBox(t, e)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			got <- struct{}{}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	code, out := box.sh(t, fmt.Sprintf("bash -c 'echo hi > /dev/tcp/127.0.0.1/%d' 2>&1 && echo CONNECTED; ls /sys/class/net 2>/dev/null; cat /proc/net/dev", port))
	if strings.Contains(out, "CONNECTED") || code != 0 {
		t.Fatalf("the sandbox reached the host network (exit %d): %s", code, out)
	}
	if strings.Contains(out, "eth") || strings.Contains(out, "ens") {
		t.Errorf("the sandbox has a network interface besides lo:\n%s", out)
	}
	select {
	case <-got:
		t.Fatal("the host listener accepted a connection from the sandbox")
	case <-time.After(200 * time.Millisecond):
	}
}

func TestSandboxCannotWriteOutsideWork(t *testing.T) {
	slow(t)
	t.Parallel()
	e := newEnv(t)
	box, work := realBox(t, e)
	for _, p := range []string{"/x", "/usr/bin/x", "/etc/x", goEnvRoot() + "/x", "/opt/harness", "/proc/x", "/run/x"} {
		if code, out := box.sh(t, "echo pwned > '"+p+"' 2>/dev/null && echo WROTE"); strings.Contains(out, "WROTE") {
			t.Errorf("wrote %s (exit %d)", p, code)
		}
	}
	if _, out := box.sh(t, "echo ok > /work/task/new.txt && echo ok > /tmp/x && echo WROTE"); !strings.Contains(out, "WROTE") {
		t.Fatalf("cannot write /work and /tmp: %s", out)
	}
	if b, err := os.ReadFile(filepath.Join(work, "task", "new.txt")); err != nil || string(b) != "ok\n" {
		t.Errorf("a write to /work did not reach the run's folder: %v", err)
	}
	if _, err := os.Stat("/x"); err == nil {
		t.Error("/x exists on the host")
	}
}

func TestSandboxTimeoutKillsTheWholeTree(t *testing.T) {
	slow(t)
	e := newEnv(t)
	box, _ := realBox(t, e)
	box.Timeout = time.Second
	box.Args = []string{"sh", "-c", "setsid sleep 3137 & (nohup sleep 3137 &) ; sleep 3137"}
	// The sleeps outlast any test: Run returning at all shows the timeout acted.
	_, _, timedOut, err := box.Run(ctx())
	if err != nil || !timedOut {
		t.Fatalf("timedOut=%v err=%v", timedOut, err)
	}
	// The kernel reaps the killed tree on its own time: wait for it, not for a guess.
	var left []string
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(100 * time.Millisecond) {
		left = left[:0]
		procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, p := range procs {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), "3137") && strings.HasPrefix(string(b), "sleep") {
				left = append(left, fmt.Sprintf("%s %q", p, b))
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(left) > 0 {
		t.Errorf("orphans survived the timeout for 2 minutes: %v", left)
	}
}

func TestSandboxCapsOutputAndProcesses(t *testing.T) {
	slow(t)
	t.Parallel()
	e := newEnv(t)
	box, _ := realBox(t, e)
	box.Args = []string{"sh", "-c", "head -c 5000000 /dev/zero"}
	_, out, _, err := box.Run(ctx())
	if err != nil || len(out) != maxOutput {
		t.Fatalf("output = %d bytes, err %v; want the first %d", len(out), err, maxOutput)
	}
	if st, err := os.Stat("/sys/fs/cgroup/pids"); err != nil || !st.IsDir() {
		t.Skip("no pids cgroup on this machine: the process cap is not enforced here")
	}
	code, outs := box.sh(t, "for i in $(seq 700); do sleep 5 >/dev/null 2>&1 & done 2>&1 | tail -1; echo done")
	if !strings.Contains(outs, "fork") && !strings.Contains(outs, "Resource temporarily unavailable") {
		t.Errorf("700 processes were allowed (exit %d): %s", code, outs)
	}
}

func goEnvRoot() string {
	root, _ := goEnv()
	return root
}

// The warm cache's entries are dated ahead: go never refreshes their times,
// so a sandbox's overlay never copies them up (a fifth of each scoring's
// time, once the cache was an hour old).
func TestWarmCacheEntriesAreDatedAhead(t *testing.T) {
	slow(t)
	dir, err := WarmCache()
	if err != nil {
		t.Fatal(err)
	}
	soon, n := time.Now().AddDate(1, 0, 0), 0
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		info, ierr := d.Info()
		if err = errors.Join(err, ierr); err == nil && info.ModTime().Before(soon) {
			t.Errorf("%s is dated %s", p, info.ModTime())
		}
		n++
		return err
	})
	if err != nil || n < 100 {
		t.Fatalf("the warm cache holds %d entries: %v", n, err)
	}
}
