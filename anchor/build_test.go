package anchor

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// The anchor compiled every candidate with go build on the host: no
// sandbox, no memory cap, no time limit, and a compiler bomb in an
// editable file (build-compiler-bomb.txtar) took over a gigabyte. The
// build is held to what a sandbox of the ledger may use (here 512 MiB): the
// bomb's compiler is stopped there, and the candidate is rejected as one
// that does not build, before any run. A fresh constant defeats the build
// cache. (The test measured the apply's rusage once; whether that sees a
// sandbox's processes depends on who reaps them, so it measured the cap on
// some runs and not on others.)
func TestCandidateBuildIsBounded(t *testing.T) {
	slow(t)
	t.Parallel()
	e, dir := suiteEnv(t)
	e.a.Memory = 512 << 20
	component, bomb := attackFor(t, "build-compiler-bomb").edit()
	bomb = fillIn(bomb, map[string]string{"nonce": fmt.Sprintf("%016x", time.Now().UnixNano())})
	cand := e.candidate(t, component, makeDiff(t, dir, map[string]string{component: bomb}))
	start := time.Now()
	if err := e.a.Apply(ctx(), cand); err != nil {
		t.Fatal(err)
	}
	g := e.last(t)
	t.Logf("%s in %s: %.300s", g.Decision, time.Since(start).Round(time.Second), g.Reason)
	if g.Decision != "reject" || !strings.HasPrefix(g.Reason, "invalid: harness does not build") || g.Runs != 0 {
		t.Errorf("the compiler bomb: %s after %d runs: %.300s", g.Decision, g.Runs, g.Reason)
	}
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
