package anchor

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The anchor compiled every candidate with go build on the host: no
// sandbox, no memory cap, no time limit, and a compiler bomb in an
// editable file (build-compiler-bomb.txtar) took over a gigabyte. The
// build is held to what a run may use. The apply runs in a child process,
// whose rusage covers the compiler; a fresh constant defeats the build
// cache.
func TestCandidateBuildIsBounded(t *testing.T) {
	slow(t)
	t.Parallel()
	const memory = 512 << 20
	if os.Getenv("BUILD_BOMB_CHILD") == "" {
		child := exec.Command(os.Args[0], "-test.run=^TestCandidateBuildIsBounded$", "-test.count=1", "-test.v")
		child.Env = append(os.Environ(), "BUILD_BOMB_CHILD=1")
		out, err := child.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		maxrss := child.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
		t.Logf("the apply's largest process: %d MiB", maxrss>>20)
		if maxrss > memory+64<<20 {
			t.Errorf("building the candidate took %d MiB on the host, more than a sandbox's %d MiB", maxrss>>20, memory>>20)
		}
		return
	}
	e, dir := suiteEnv(t)
	e.a.Memory = memory
	component, bomb := attackFor(t, "build-compiler-bomb").edit()
	bomb = fillIn(bomb, map[string]string{"nonce": fmt.Sprintf("%016x", time.Now().UnixNano())})
	cand := e.candidate(t, component, makeDiff(t, dir, map[string]string{component: bomb}))
	start := time.Now()
	err := e.a.Apply(ctx(), cand)
	g := e.last(t)
	t.Logf("%s in %s: %s (%v)", g.Decision, time.Since(start).Round(time.Second), g.Reason, err)
}

// A run another judge scored (another anchor build or Go toolchain) is not
// served from the cache: it runs again under this one, and ratchet log
// counts the runs the newest judge no longer trusts (audit's
// TestLogShowsTheGenerationsAndStaleRuns).
func TestRunsKnowTheirJudge(t *testing.T) {
	slow(t)
	t.Parallel()
	e := newEnv(t, repeat(fixer(""), 20)...)
	task := addTask(t, e.suite, "train", "judged")
	hash, err := e.a.Snapshot(harnessDir(t))
	if err != nil {
		t.Fatal(err)
	}
	first, err := e.a.RunTask(ctx(), hash, task, 0, false)
	if err != nil || first.Judge != judge() || !strings.Contains(first.Judge, " go1.") {
		t.Fatalf("first run: judge %q (want %q), %v", first.Judge, judge(), err)
	}
	again, err := e.a.RunTask(ctx(), hash, task, 0, false)
	if err != nil || !again.Cached || again.ID != first.ID {
		t.Fatalf("the same judge's run was not served from the cache: %+v, %v", again, err)
	}
	if _, err := e.a.db.Exec(`UPDATE runs SET judge = 'an older anchor go1.25.0'`); err != nil {
		t.Fatal(err)
	}
	rerun, err := e.a.RunTask(ctx(), hash, task, 0, false)
	if err != nil || rerun.Cached || rerun.ID == first.ID || rerun.Judge != judge() || rerun.Outcome != "ok" {
		t.Fatalf("another judge's run was served, or the new run is wrong: %+v, %v", rerun, err)
	}
}
